import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PosSealedCard, PosTransactionAcceptedV1 } from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { Metrics } from '@payments/platform-metrics';
import {
  DevHost,
  eventually,
  freePorts,
  privateDatabaseUrl,
  repoRoot,
  startDevHost,
  startTestApp,
  testEnvironment,
  testEvent,
} from '@payments/testing';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';

import { cardProcessorApp } from '../../app';
import { Env } from '../../config/env';
import { database } from '../../database/data-source';
import { PosTransactionsConsumer } from '../../pos/pos-transactions.consumer';
import { CARD_SEALER } from '../../tokens';
import { CardNetworks } from '../card-networks';
import { reconcileNetworks } from './reconcile-networks';

jest.setTimeout(180_000);

const approvedCard = '5060990000000000019';
const declinedCard = '4000000000000002';
const droppedCard = '5060990000000000035';

/** Runs a Node script of the repository as production does: compiled, with the path aliases registered. */
const nodeScript = (script: string, args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['-r', './tools/runtime/register-paths.cjs', script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...testEnvironment(env) },
    encoding: 'utf8',
  });

/**
 * A settlement date reconciled end to end: POS payments decided by a development card host of
 * its own, booked in outlet-service's real ledger schema (migrated into the suite's private
 * database), and the host's answer to the 0500.
 */
describe('reconciling a settlement date', () => {
  let app: NestFastifyApplication;
  let env: Env;
  let host: DevHost;
  let url: string;
  let drop: () => Promise<void>;
  const db = () => app.get(DataSource);

  beforeAll(async () => {
    ({ url, drop } = await privateDatabaseUrl(database));
    // The CLI and outlet-service's migrations run compiled, as `npm run` runs them: from the
    // build `npm test` makes before any suite.
    const migrated = nodeScript('tools/runtime/migrate.cjs', ['outlet-service'], { DATABASE_URL: url });
    if (migrated.status !== 0) throw new Error(`outlet-service's migrations failed: ${migrated.stderr}`);
    const [port, controlPort] = await freePorts(2);
    host = await startDevHost({ port, controlPort, zonePinKey: randomBytes(16).toString('hex') });
    ({ app, env } = await startTestApp(
      { ...cardProcessorApp, kafkaConsumer: false },
      { DATABASE_URL: url, CARD_NETWORK_SANDBOX_ADDRESS: host.address, CARD_NETWORK_TIMEOUT_MS: '1500' },
    ));
    await eventually(async () => (app.get(CardNetworks).byName('sandbox').isReady() ? true : undefined), 20_000);
  });

  afterAll(async () => {
    await app?.close();
    await host?.stop();
    await drop?.();
  });

  /** A POS payment of `businessId`, decided by the host; its network request afterwards. */
  const pay = async (businessId: string, pan: string, amount: string) => {
    const reference = `POS-${ulid()}`;
    const card = { pan, cardExpiryDate: '3012', pinBlock: 'null', track2Data: '', iccData: '' } as PosSealedCard;
    const transaction = testEvent(PosTransactionAcceptedV1, {
      businessId,
      reference,
      serialNumber: 'SN-RECON-1',
      outletId: null,
      amount,
      maskedPan: `${pan.slice(0, 6)}*********${pan.slice(-4)}`,
      mode: 'test',
      sequenceNumber: '000001',
      accountType: 'default',
      cardHolderName: 'ADA OBI',
      aid: 'A0000000041010',
      institutionCode: '627821',
      sealedCard: app.get<Sealer>(CARD_SEALER).seal(JSON.stringify(card), reference),
    });
    await app.get(PosTransactionsConsumer).handle(transaction);
    return request(reference);
  };
  const request = async (reference: string) =>
    (
      (await db().query(
        `SELECT state, amount::text, rrn, reversal_code, to_char(settlement_date, 'YYYY-MM-DD') AS settlement_date,
                to_char(transmitted_at AT TIME ZONE 'Africa/Lagos', 'YYYY-MM-DD') AS sent_on, payment_reference
         FROM card_processor.network_requests WHERE purpose = 'pos' AND payment_reference = $1`,
        [reference],
      )) as {
        state: string;
        amount: string;
        rrn: string;
        reversal_code: string | null;
        settlement_date: string | null;
        sent_on: string;
        payment_reference: string;
      }[]
    )[0];

  /** What outlet-service books for an approved POS payment: its rail wallet to its settlement wallet, under the POS reference. */
  const book = (businessId: string, reference: string, amount: string) =>
    db().transaction(async (em) => {
      await em.query(
        `INSERT INTO outlets.tenants (business_id, name, mode) VALUES ($1, 'Reconciled Stores', 'test') ON CONFLICT DO NOTHING`,
        [businessId],
      );
      await em.query(
        `INSERT INTO outlets.wallets (id, business_id, type, account_name, allow_negative)
         VALUES ($1, $3, 'rail', 'rail', true), ($2, $3, 'settlement', 'settlement', false) ON CONFLICT DO NOTHING`,
        [ulid(), ulid(), businessId],
      );
      const entryId = ulid();
      await em.query(
        `INSERT INTO outlets.journal_entries (id, business_id, kind, reference, narration) VALUES ($1, $2, 'pos', $3, 'POS')`,
        [entryId, businessId, reference],
      );
      await em.query(
        `INSERT INTO outlets.postings (entry_id, wallet_id, amount)
         SELECT $1, id, CASE type WHEN 'rail' THEN -$3::bigint ELSE $3::bigint END FROM outlets.wallets
         WHERE business_id = $2 AND type IN ('rail', 'settlement')`,
        [entryId, businessId, amount],
      );
    });

  const reconcile = async (day: string) => {
    const [report] = await reconcileNetworks(db(), env, day, { network: 'sandbox', readyTimeoutMs: 20_000 });
    return report;
  };

  let day: string;
  let standing: { payment_reference: string; rrn: string };

  it('agrees with the host and the ledger over approvals, a decline and a reversed dropped answer', async () => {
    const businessId = ulid();
    const approved = [await pay(businessId, approvedCard, '2500'), await pay(businessId, approvedCard, '4000')];
    for (const paid of approved) {
      expect(paid.state).toBe('approved');
      await book(businessId, paid.payment_reference, paid.amount);
    }
    expect((await pay(businessId, declinedCard, '1500')).state).toBe('declined');
    await host.faults([{ pan: droppedCard, action: 'drop', times: 1 }]);
    const dropped = await pay(businessId, droppedCard, '900');
    const reversed = await eventually(async () => {
      const now = await request(dropped.payment_reference);
      return now.state === 'reversed' ? now : undefined;
    }, 20_000);
    // The host had approved it: only its answer was lost. No 0210, so no settlement date.
    expect(reversed).toMatchObject({ reversal_code: '00', settlement_date: null });
    [day, standing] = [approved[0].settlement_date!, approved[0]];

    const report = await reconcile(day);
    expect(report).toMatchObject({
      network: 'sandbox',
      settlementDate: day,
      host: { answered: true, agreed: true, responseCode: '00' },
      differences: [],
    });
    if (reversed.sent_on === day) expect(report.totals.reversedPurchases).toEqual({ count: 1, amount: '900' });
    expect(JSON.stringify(report)).not.toMatch(new RegExp([approvedCard, declinedCard, droppedCard].join('|')));
    // Read on scrape from the run just recorded.
    const registry = app.get(Metrics).registry;
    const differences = await registry.getSingleMetricAsString('card_network_reconciliation_differences');
    expect(differences).toMatch(/^card_network_reconciliation_differences\{network="sandbox"[^}]*\} 0$/m);
    const age = await registry.getSingleMetricAsString('card_network_reconciliation_age_seconds');
    expect(Number(/\{network="sandbox"[^}]*\} (\S+)$/m.exec(age)?.[1])).toBeLessThan(60);
  });

  it('reports an approval the ledger never booked, while the host agrees with the records', async () => {
    const businessId = ulid();
    const unbooked = await pay(businessId, approvedCard, '3300');
    expect(unbooked.settlement_date).toBe(day);
    const report = await reconcile(day);
    expect(report.host).toEqual({ answered: true, agreed: true, responseCode: '00' });
    expect(report.differences).toEqual([
      expect.objectContaining({
        kind: 'approved-not-booked',
        paymentReference: unbooked.payment_reference,
        rrn: unbooked.rrn,
        requested: '3300',
      }),
    ]);
    await book(businessId, unbooked.payment_reference, unbooked.amount);
  });

  it('reports a record tampered with, the host disagreeing, and exits non-zero from the command', async () => {
    await db().query(
      `UPDATE card_processor.network_requests SET amount = amount + 100 WHERE purpose = 'pos' AND payment_reference = $1`,
      [standing.payment_reference],
    );
    const report = await reconcile(day);
    expect(report.differences).toEqual([
      expect.objectContaining({ kind: 'amounts-differ', rrn: standing.rrn, requested: '2600', booked: '2500' }),
      expect.objectContaining({ kind: 'host-disagrees', responseCode: '95' }),
    ]);
    const recorded = (await db().query(
      `SELECT differences, host_agreed FROM card_processor.reconciliations ORDER BY ran_at DESC LIMIT 1`,
    )) as { differences: number; host_agreed: boolean }[];
    expect(recorded).toEqual([{ differences: 2, host_agreed: false }]);

    const command = nodeScript(
      'dist/apps/card-processor/src/cli/reconcile.js',
      ['--date', day, '--network', 'sandbox'],
      {
        DATABASE_URL: url,
        CARD_NETWORK_SANDBOX_ADDRESS: host.address,
      },
    );
    expect(command.status).toBe(3);
    expect(command.stdout).toContain(`settlement date ${day}`);
    expect(command.stdout).toContain(`amounts-differ: approved for 2600, booked for 2500`);
    expect(command.stdout).toContain('host-disagrees: the host answered 95');
    expect(command.stdout).not.toContain(approvedCard);
  });
});
