import { Topics } from '@payments/contracts';
import { encryptPosPayload } from '@payments/platform-crypto';
import { eventually, KafkaCollector, samplePosPayload, testEnvironment } from '@payments/testing';
import { Client } from 'pg';

import { appPorts, npmRun, spawnApp, useApps, waitForReady } from './apps';
import { createPartner, PartnerCredentials, registerTerminal } from './partners';

jest.setTimeout(180_000);

const gateway = `http://127.0.0.1:${appPorts['checkout-gateway']}`;

describe('POS transactions from terminal to wallet', () => {
  const apps = useApps(['checkout-gateway', 'pos-ingest', 'card-processor', 'outlet-service']);
  let partner: PartnerCredentials;
  let outlet: { outletId: string; collectionWallet: { walletId: string } };
  let events: KafkaCollector;
  const serial = `SN-E2E-${Date.now()}`;

  const wallet = async () => {
    const response = await fetch(`${gateway}/outlets/${outlet.outletId}`, {
      headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret },
    });
    return ((await response.json()) as { data: { collectionWallet: { ledgerBalance: string } } }).data.collectionWallet;
  };
  const send = (args: string[]) =>
    npmRun('pos:send', [
      '--serial',
      serial,
      '--key',
      partner.posEncryptionKey,
      '--url',
      `http://127.0.0.1:${appPorts['pos-ingest']}`,
      ...args,
    ]);
  const partnerEvent = (name: string, reference: string) =>
    eventually(
      () =>
        events.messages
          .map((message) => JSON.parse(message.value).payload as { event: string; eventData: Record<string, unknown> })
          .find((payload) => payload.event === name && payload.eventData.transactionReference === reference),
      60_000,
    );

  beforeAll(async () => {
    events = await new KafkaCollector(testEnvironment().KAFKA_BROKERS!, Topics.partnerEvents.name).start();
    partner = createPartner('POS Partner');
    outlet = await eventually(async () => {
      const response = await fetch(`${gateway}/outlets`, {
        method: 'POST',
        headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, 'content-type': 'application/json' },
        body: JSON.stringify({ accountName: 'Shop with a terminal' }),
      });
      return response.status === 200 ? ((await response.json()) as { data: typeof outlet }).data : undefined;
    }, 30_000);
    // Onboarding reaches pos-ingest over Kafka too: register once it has.
    await registerTerminal(partner.businessId, serial, outlet.outletId);
  });

  afterAll(async () => {
    await events?.stop();
  });

  it('registers a serial number to one business only', async () => {
    const other = createPartner('Other POS Partner');
    // Until onboarding reaches pos-ingest the answer is "unknown business"; then it is this one.
    const taken = await eventually(async () => {
      const attempt = npmRun('terminal:register', ['--business', other.businessId, '--serial', serial]);
      return attempt.stderr.includes('not known to pos-ingest') ? undefined : attempt;
    }, 30_000);
    expect(taken.status).toBe(2);
    expect(taken.stderr).toContain(`terminal ${serial} belongs to another business`);
  });

  it('registers a terminal only to an outlet of its own business', async () => {
    const register = (businessId: string, serialNumber: string, outletId: string) =>
      npmRun('terminal:register', ['--business', businessId, '--serial', serialNumber, '--outlet', outletId]);
    const mistypedOutlet = `${outlet.outletId.slice(0, -1)}${outlet.outletId.endsWith('0') ? '1' : '0'}`;
    const mistyped = register(partner.businessId, `${serial}-C`, mistypedOutlet);
    const stranger = createPartner('Stranger POS Partner');
    const borrowed = await eventually(async () => {
      const attempt = register(stranger.businessId, `${serial}-D`, outlet.outletId);
      return attempt.stderr.includes('not known to pos-ingest') ? undefined : attempt;
    }, 30_000);

    expect([mistyped.status, borrowed.status]).toEqual([2, 2]);
    expect(mistyped.stderr).toContain(`outlet ${mistypedOutlet} is not an outlet of business ${partner.businessId}`);
    expect(borrowed.stderr).toContain(`outlet ${outlet.outletId} is not an outlet of business ${stranger.businessId}`);
    const db = new Client({ connectionString: testEnvironment().DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT serial_number FROM pos_ingest.terminals WHERE serial_number = ANY($1)`, [
        [`${serial}-C`, `${serial}-D`],
      ]);
      expect(rows).toEqual([]);
    } finally {
      await db.end();
    }
  });

  it('lists a terminal registered to an unknown outlet until it is registered again to its real one', async () => {
    const audit = (args: string[] = []) => npmRun('terminal:audit', ['--business', partner.businessId, ...args]);
    const db = new Client({ connectionString: testEnvironment().DATABASE_URL });
    await db.connect();
    try {
      // Registered before the outlet was checked, to a mistyped outlet: written as that release wrote it.
      await db.query(`INSERT INTO pos_ingest.terminals (serial_number, business_id, outlet_id) VALUES ($1, $2, $3)`, [
        `${serial}-E`,
        partner.businessId,
        'OUTLET-MISTYPED',
      ]);
    } finally {
      await db.end();
    }
    const listed = audit(['--json']);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { serialNumber: `${serial}-E`, businessId: partner.businessId, outletId: 'OUTLET-MISTYPED' },
    ]);
    expect(audit().stdout).toContain(`terminal ${serial}-E of business ${partner.businessId}: outlet OUTLET-MISTYPED`);

    await registerTerminal(partner.businessId, `${serial}-E`, outlet.outletId);
    expect(JSON.parse(audit(['--json']).stdout)).toEqual([]);
    expect(audit().stdout).toContain('No terminal is registered to an unknown outlet');
  });

  it('credits the outlet’s collection wallet for an approved card, once, with fundAccount.success', async () => {
    const first = send(['--amount', '250000', '--sequence', '000001']);
    expect(first.status).toBe(0);
    const { data } = JSON.parse(first.stdout) as { data: { reference: string; transactionStatus: string } };
    expect(data.transactionStatus).toBe('PROCESSING');
    const again = JSON.parse(send(['--amount', '250000', '--sequence', '000001']).stdout) as {
      data: { reference: string };
    };
    expect(again.data.reference).toBe(data.reference);

    const event = await partnerEvent('fundAccount.success', data.reference);
    expect(event.eventData).toMatchObject({
      productType: 'pos',
      amount: '250000',
      transactionStatus: 'SUCCESS',
      transactionType: 'CREDIT',
    });
    expect(JSON.stringify(event)).not.toContain('5061460410120223210');
    expect(event.eventData).toMatchObject({ fee: '1250', netAmount: '248750' }); // the default 0.5%
    expect((await wallet()).ledgerBalance).toBe('248750');
  });

  it('applies a captured request replayed under another terminal, after pos-ingest restarted, as the one transaction it is', async () => {
    const secondTerminal = `${serial}-B`;
    expect(
      npmRun('terminal:register', [
        '--business',
        partner.businessId,
        '--serial',
        secondTerminal,
        '--outlet',
        outlet.outletId,
      ]).status,
    ).toBe(0);
    const before = BigInt((await wallet()).ledgerBalance);
    const submit = (serialNumber: string, data: string) =>
      fetch(`http://127.0.0.1:${appPorts['pos-ingest']}/pos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ serialNumber, data }),
      });
    const captured = encryptPosPayload(
      samplePosPayload({ amount: '4100', sequenceNumber: '000777', iccData: '9F2608AB12CD34EF5678' }),
      partner.posEncryptionKey,
    );
    const original = (await (await submit(serial, captured)).json()) as { data: { reference: string } };
    await partnerEvent('fundAccount.success', original.data.reference);

    // Nothing in memory survives: the replay is recognised by what it is, not by what was seen.
    const posIngest = apps.find((app) => app.name === 'pos-ingest')!;
    posIngest.process.kill('SIGTERM');
    await posIngest.exited;
    apps.splice(apps.indexOf(posIngest), 1, spawnApp('pos-ingest'));
    await waitForReady(appPorts['pos-ingest'], apps.at(-1));
    const replay = await submit(secondTerminal, captured);
    expect([replay.status, ((await replay.json()) as { data: { reference: string } }).data.reference]).toEqual([
      200,
      original.data.reference,
    ]);

    // A new purchase behind the replay on the second terminal's partition: once it is credited,
    // the replay was processed too.
    const next = JSON.parse(
      npmRun('pos:send', [
        '--serial',
        secondTerminal,
        '--key',
        partner.posEncryptionKey,
        '--url',
        `http://127.0.0.1:${appPorts['pos-ingest']}`,
        '--amount',
        '900',
      ]).stdout,
    ) as {
      data: { reference: string };
    };
    await partnerEvent('fundAccount.success', next.data.reference);
    // Each credited once, less its 0.5% fee rounded half-up to the kobo: 20.5 → 21, 4.5 → 5.
    expect(BigInt((await wallet()).ledgerBalance) - before).toBe(4100n - 21n + (900n - 5n));
    const db = new Client({ connectionString: testEnvironment().DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT serial_number FROM card_processor.pos_authorisations WHERE reference = $1`,
        [original.data.reference],
      );
      expect(rows).toEqual([{ serial_number: serial }]);
      const credits = await db.query(
        `SELECT count(*)::int AS count FROM outlets.journal_entries WHERE business_id = $1 AND reference = $2`,
        [partner.businessId, original.data.reference],
      );
      expect(credits.rows).toEqual([{ count: 1 }]);
    } finally {
      await db.end();
    }
    const successes = events.messages.filter(
      (message) => message.value.includes(original.data.reference) && message.value.includes('fundAccount.success'),
    );
    expect(successes).toHaveLength(1);
  });

  it('sends a FAILED event for a declined card and credits nothing', async () => {
    const before = (await wallet()).ledgerBalance;
    const declined = JSON.parse(send(['--amount', '7000', '--card', '4000000000000002']).stdout) as {
      data: { reference: string };
    };
    const event = await partnerEvent('fundAccount.failed', declined.data.reference);
    expect(event.eventData).toMatchObject({ transactionStatus: 'FAILED', comment: 'Declined by the card issuer' });
    expect((await wallet()).ledgerBalance).toBe(before);
  });
});
