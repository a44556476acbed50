import { randomBytes } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DevHost, eventually, freePorts, startDevHost, startTestApp } from '@payments/testing';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';

import { cardProcessorApp } from '../app';
import { AcceptorIds, CardAcceptorsRepository } from './card-acceptors.repository';
import { CardAuthoriser, PreparedRequest, sendWithinMs } from './card-authoriser';
import { CardNetworks } from './card-networks';
import { NetworkRequestRow } from './network-requests.repository';

/**
 * The network step where a request's sender and the answers part ways: a request whose sender
 * stalled is given up, reversed, and never sent after; an approval that comes after the host
 * acknowledged a reversal with nothing to reverse is reversed again, whether its sender or
 * another connection receives it.
 */
describe('the network step when senders stall and answers come late', () => {
  let app: NestFastifyApplication;
  let host: DevHost;
  const timeoutMs = 4_000;

  beforeAll(async () => {
    const [port, controlPort] = await freePorts(2);
    host = await startDevHost({ port, controlPort, zonePinKey: randomBytes(16).toString('hex') });
    ({ app } = await startTestApp(
      { ...cardProcessorApp, kafkaConsumer: false },
      {
        CARD_NETWORK_SANDBOX_ADDRESS: host.address,
        CARD_NETWORK_TIMEOUT_MS: String(timeoutMs),
        CARD_NETWORK_REVERSAL_INTERVAL_MS: '500',
      },
    ));
    await eventually(async () => (app.get(CardNetworks).byName('sandbox').isReady() ? true : undefined), 20_000);
  });

  afterAll(async () => {
    await app?.close();
    await host?.stop();
  });

  const requestOf = async (reference: string) =>
    (
      (await app
        .get(DataSource)
        .query(`SELECT * FROM card_processor.network_requests WHERE purpose = 'pos' AND payment_reference = $1`, [
          reference,
        ])) as NetworkRequestRow[]
    )[0];
  const decisionOf = async (reference: string) =>
    (
      (await app
        .get(DataSource)
        .query(`SELECT approved, decline_reason FROM card_processor.pos_authorisations WHERE reference = $1`, [
          reference,
        ])) as { approved: boolean | null; decline_reason: string | null }[]
    )[0];

  /** A POS transaction written to the network as sent, and not sent: its sender stalls here. */
  async function stalledRequest(): Promise<{ reference: string; prepared: PreparedRequest }> {
    const reference = `POS-${ulid()}`;
    const pan = '5060990000000000019';
    const authoriser = app.get(CardAuthoriser);
    const prepared = await app.get(DataSource).transaction(async (em) => {
      await em.query(
        `INSERT INTO card_processor.pos_authorisations (reference, business_id, serial_number, outlet_id, amount, masked_pan)
         VALUES ($1, $2, 'SN-STALL', NULL, 1500, '506099*********0019')`,
        [reference, ulid()],
      );
      return authoriser.prepare(em, {
        purpose: 'pos',
        paymentReference: reference,
        businessId: ulid(),
        mode: 'test',
        kind: 'purchase',
        amount: '1500',
        card: { pan, expiry: '3012', accountType: 'default', entryMode: 'chip' },
        terminal: { kind: 'pos', serialNumber: 'SN-STALL' },
        acceptorName: 'Stalled Stores',
      });
    });
    return { reference, prepared };
  }

  /** Past the stranded limit (timeout + 5 s), as if the sender had stopped for that long: the sweep gives it up. */
  const strand = (reference: string) =>
    app
      .get(DataSource)
      .query(
        `UPDATE card_processor.network_requests SET transmitted_at = transmitted_at - interval '1 minute' WHERE payment_reference = $1`,
        [reference],
      );

  async function givenUp(reference: string): Promise<NetworkRequestRow> {
    await strand(reference);
    return eventually(async () => {
      const request = await requestOf(reference);
      return request.state === 'reversed' ? request : undefined;
    }, 20_000);
  }

  it('gives up a request whose sender stalled, fails its payment, reverses it, and never sends it after', async () => {
    const { reference, prepared } = await stalledRequest();
    const reversed = await givenUp(reference);
    expect(reversed.reversal_code).toBe('25');
    expect(await decisionOf(reference)).toMatchObject({ approved: false });
    // The sender wakes up past its bound: the request it holds does not go out.
    await new Promise((resolve) => setTimeout(resolve, sendWithinMs + 100 - (performance.now() - prepared.preparedAt)));
    await expect(app.get(CardAuthoriser).send(prepared)).resolves.toBeUndefined();
    expect((await host.messages(reversed.rrn)).map((message) => message.mti)).toEqual(['0420']);
    expect((await requestOf(reference)).state).toBe('reversed');
  });

  it('reverses the approval of a request given up while its sender was writing it', async () => {
    const { reference, prepared } = await stalledRequest();
    const given = await givenUp(reference);
    // The sender passed its bound just before the sweep gave the request up, and writes it now.
    await expect(app.get(CardAuthoriser).send({ ...prepared, preparedAt: performance.now() })).resolves.toBeUndefined();
    await eventually(async () => {
      const mtis = (await host.messages(given.rrn)).map((message) => message.mti);
      return mtis.length === 3 ? mtis : undefined;
    }, 20_000);
    expect((await host.messages(given.rrn)).map((message) => message.mti)).toEqual(['0420', '0200', '0421']);
    expect(await decisionOf(reference)).toMatchObject({ approved: false });
    expect(
      await eventually(async () => ((await requestOf(reference)).reversal_code === '00' ? true : undefined), 20_000),
    ).toBe(true);
  });

  it('keeps reversing a request whose approval came before the host’s “nothing to reverse” did', async () => {
    const { reference, prepared } = await stalledRequest();
    const { rrn } = prepared.row;
    // The host takes the 0420 before the 0200, and its answer to the 0420 comes after the approval.
    await host.faults([{ mti: '0420', action: 'delay', ms: 2_000, times: 1 }]);
    try {
      await strand(reference);
      await eventually(async () => ((await host.messages(rrn)).length > 0 ? true : undefined), 20_000);
      await expect(
        app.get(CardAuthoriser).send({ ...prepared, preparedAt: performance.now() }),
      ).resolves.toBeUndefined();
      const reversed = await eventually(async () => {
        const request = await requestOf(reference);
        return request.state === 'reversed' ? request : undefined;
      }, 20_000);
      expect(reversed.reversal_code).toBe('00');
      expect((await host.messages(rrn)).map((message) => [message.mti, message.de39])).toEqual([
        ['0420', '25'],
        ['0200', '00'],
        ['0421', '00'],
      ]);
      expect(await decisionOf(reference)).toMatchObject({ approved: false });
    } finally {
      await host.clearFaults();
    }
  });

  it('never remembers acceptor ids a transaction drew and then rolled back', async () => {
    const businessId = ulid();
    const terminal = { kind: 'pos', serialNumber: 'SN-ROLLED-BACK' } as const;
    const acceptors = app.get(CardAcceptorsRepository);
    const dataSource = app.get(DataSource);
    let rolledBack: AcceptorIds | undefined;
    await expect(
      dataSource.transaction(async (em) => {
        rolledBack = await acceptors.acceptorIds(em, businessId, terminal);
        throw new Error('the payment failed after drawing its acceptor');
      }),
    ).rejects.toThrow('the payment failed');
    const drawn = await acceptors.acceptorIds(dataSource.manager, businessId, terminal);
    expect(drawn).not.toEqual(rolledBack);
    expect(await acceptors.acceptorIds(dataSource.manager, businessId, terminal)).toEqual(drawn);
    const [stored] = (await dataSource.query(
      `SELECT m.merchant_id, t.terminal_id FROM card_processor.card_merchants m
       JOIN card_processor.card_terminals t USING (business_id) WHERE business_id = $1`,
      [businessId],
    )) as AcceptorIds[];
    expect(stored).toEqual(drawn);
  });

  it('reverses again an approval that comes after the host acknowledged a reversal with nothing to reverse', async () => {
    const { reference } = await stalledRequest();
    const given = await givenUp(reference);
    // The host's approval of it arrives now, on some connection, long after.
    await app.get(CardAuthoriser).answerUnmatched({
      network: 'sandbox',
      acquirerId: given.acquirer_id,
      stan: given.stan,
      rrn: given.rrn,
      answer: { outcome: 'approved', responseCode: '00', authorisationCode: 'A1B2C3', settlementDate: null },
    });
    await eventually(async () => {
      const mtis = (await host.messages(given.rrn)).map((message) => message.mti);
      return mtis.length === 2 ? mtis : undefined;
    }, 20_000);
    expect((await host.messages(given.rrn)).map((message) => message.mti)).toEqual(['0420', '0421']);
    // Never credited: the payment stays failed.
    expect(await decisionOf(reference)).toMatchObject({ approved: false });
  });
});
