import { randomBytes } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PosSealedCard, PosTransactionAcceptedV1, PosTransactionDecidedV1Payload } from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { PoisonMessageError } from '@payments/platform-kafka';
import { SoftwarePinModule, terminalPinBlock } from '@payments/platform-pin-security';
import { DevHost, eventually, freePorts, startDevHost, startTestApp, testEvent } from '@payments/testing';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';

import { cardProcessorApp } from '../app';
import { AuthorisationRequest } from '../card-network/card-network';
import { CardNetworks } from '../card-network/card-networks';
import { CARD_SEALER } from '../tokens';
import { PosTransactionsConsumer } from './pos-transactions.consumer';

/**
 * card-processor's decision on an accepted POS transaction, by a development card host of its
 * own: sent once, stored and announced once per reference.
 */
describe('POS transaction decisions', () => {
  let app: NestFastifyApplication;
  let host: DevHost;
  // The zone PIN key the host opens PIN blocks with, and the master key terminal PIN keys are wrapped under.
  const zonePinKey = randomBytes(16).toString('hex').toUpperCase();
  const pinMasterKey = randomBytes(32).toString('base64');

  beforeAll(async () => {
    const [port, controlPort] = await freePorts(2);
    host = await startDevHost({ port, controlPort, zonePinKey });
    ({ app } = await startTestApp(
      { ...cardProcessorApp, kafkaConsumer: false },
      {
        CARD_NETWORK_SANDBOX_ADDRESS: host.address,
        CARD_NETWORK_TIMEOUT_MS: '1500',
        CARD_NETWORK_SANDBOX_ZONE_PIN_KEY: zonePinKey,
        PIN_MASTER_KEY: pinMasterKey,
      },
    ));
    await eventually(async () => (app.get(CardNetworks).byName('sandbox').isReady() ? true : undefined), 20_000);
  });

  afterAll(async () => {
    await app?.close();
    await host?.stop();
  });

  const accepted = (card: Pick<PosSealedCard, 'pan' | 'cardExpiryDate'> & Partial<PosSealedCard>) => {
    const reference = `POS-${ulid()}`;
    return testEvent(PosTransactionAcceptedV1, {
      businessId: ulid(),
      reference,
      serialNumber: 'SN-DECIDE-1',
      outletId: null,
      amount: '2500',
      maskedPan: '506099*********0019',
      mode: 'test',
      sequenceNumber: '000001',
      accountType: 'default',
      cardHolderName: 'ADA OBI',
      aid: 'A0000000041010',
      institutionCode: '627821',
      sealedCard: app
        .get<Sealer>(CARD_SEALER)
        .seal(JSON.stringify({ pinBlock: 'null', track2Data: '', iccData: '', ...card }), reference),
    });
  };
  const decisions = async (reference: string) =>
    (
      (await app.get(DataSource).query(
        `SELECT a.approved, a.decline_reason, o.payload->'payload' AS event
         FROM card_processor.pos_authorisations a LEFT JOIN card_processor.outbox o ON o.payload->'payload'->>'reference' = a.reference
         WHERE a.reference = $1`,
        [reference],
      )) as { approved: boolean; decline_reason: string | null; event: PosTransactionDecidedV1Payload }[]
    ).map((row) => ({ approved: row.approved, declineReason: row.decline_reason, event: row.event }));

  const networkRequest = async (reference: string) =>
    (
      (await app
        .get(DataSource)
        .query(
          `SELECT state, response_code, rrn, sealed_pan, terminal_id FROM card_processor.network_requests WHERE purpose = 'pos' AND payment_reference = $1`,
          [reference],
        )) as {
        state: string;
        response_code: string | null;
        rrn: string;
        sealed_pan: string | null;
        terminal_id: string;
      }[]
    )[0];

  it('stores an approval and queues its event, once however often the transaction is delivered', async () => {
    const transaction = accepted({
      pan: '5060990000000000019',
      cardExpiryDate: '3012',
      track2Data: '5060990000000000019D3012101',
      iccData: '9F2608AABBCCDDEEFF0011',
    });
    const consumer = app.get(PosTransactionsConsumer);
    // Delivered twice at once (a redelivery racing the first): one request goes out.
    await Promise.all([consumer.handle(transaction), consumer.handle({ ...transaction, eventId: ulid() })]);
    await consumer.handle({ ...transaction, eventId: ulid() });
    expect(await decisions(transaction.payload.reference)).toEqual([
      {
        approved: true,
        declineReason: null,
        event: expect.objectContaining({ reference: transaction.payload.reference, approved: true, amount: '2500' }),
      },
    ]);
    const request = await networkRequest(transaction.payload.reference);
    expect(request).toMatchObject({ state: 'approved', response_code: '00' });
    // The card stays sealed for the purchase's refunds, never in the clear.
    expect(request.sealed_pan).not.toContain('5060990000000000019');
    expect(request.terminal_id).toMatch(/^P\d{7}$/);
    expect((await host.messages(request.rrn)).map((message) => message.mti)).toEqual(['0200']);
  });

  it('authorises a batch’s transactions together, each once, and fails a batch only after the rest have ended', async () => {
    const card = { pan: '5060990000000000019', cardExpiryDate: '3012' };
    const batch = [accepted(card), accepted(card), accepted(card)];
    const unreadable = { ...accepted(card), payload: { ...accepted(card).payload, sealedCard: 'not sealed' } };
    const consumer = app.get(PosTransactionsConsumer);
    await expect(consumer.handleBatch([batch[0], unreadable, ...batch.slice(1)])).rejects.toBeInstanceOf(
      PoisonMessageError,
    );
    for (const transaction of batch) {
      expect(await decisions(transaction.payload.reference)).toEqual([expect.objectContaining({ approved: true })]);
    }
    // Applied again, as the consumer does one message at a time after a failed batch: nothing goes out twice.
    await consumer.handleBatch(batch.map((transaction) => ({ ...transaction, eventId: ulid() })));
    for (const transaction of batch) {
      const { rrn } = await networkRequest(transaction.payload.reference);
      expect((await host.messages(rrn)).map((message) => message.mti)).toEqual(['0200']);
    }
  });

  it.each([
    ['an expired card', { pan: '5060990000000000019', cardExpiryDate: '2001' }, '54', 'Expired card'],
    ['a declined card', { pan: '4000000000000002', cardExpiryDate: '3012' }, '05', 'Declined by the card issuer'],
    ['insufficient funds', { pan: '4000000000009995', cardExpiryDate: '3012' }, '51', 'Insufficient funds'],
  ])('stores the host’s decline of %s with its reason, and the event says why', async (_case, card, code, reason) => {
    const transaction = accepted(card);
    await app.get(PosTransactionsConsumer).handle(transaction);
    expect(await decisions(transaction.payload.reference)).toEqual([
      {
        approved: false,
        declineReason: reason,
        event: expect.objectContaining({ approved: false, declineReason: reason }),
      },
    ]);
    // A declined card is of no further use: nothing of it is kept.
    expect(await networkRequest(transaction.payload.reference)).toMatchObject({
      state: 'declined',
      response_code: code,
      sealed_pan: null,
    });
  });

  it('fails a transaction whose answer never comes, and reverses it until the host acknowledges', async () => {
    const pan = '5060990000000000035';
    await host.faults([{ pan, action: 'drop' }]);
    try {
      const transaction = accepted({ pan, cardExpiryDate: '3012' });
      await app.get(PosTransactionsConsumer).handle(transaction);
      const [decision] = await decisions(transaction.payload.reference);
      expect(decision).toMatchObject({ approved: false, event: expect.objectContaining({ approved: false }) });
      expect(decision.declineReason).toMatch(/reversed/);
      const { rrn } = await networkRequest(transaction.payload.reference);
      // The host approved and booked it (only its answer was lost): the reversal takes it back.
      const reversed = await eventually(async () => {
        const request = await networkRequest(transaction.payload.reference);
        return request.state === 'reversed' ? request : undefined;
      }, 20_000);
      expect(reversed).toMatchObject({ response_code: null, sealed_pan: null });
      expect((await host.messages(rrn)).map((message) => [message.mti, message.de39])).toEqual([
        ['0200', '00'],
        ['0420', '00'],
      ]);
    } finally {
      await host.clearFaults();
    }
  });
  describe('with a PIN', () => {
    // pos-ingest's part: the terminal's key, issued at registration and wrapped under the master key.
    const hsm = new SoftwarePinModule(pinMasterKey);
    const card = { pan: '5060990000000000019', cardExpiryDate: '3012', iccData: '9F2608AABBCCDDEEFF0011' };
    const withPin = async (pin: string, underKey?: string) => {
      const terminalKey = await hsm.generateTerminalKey();
      const pinBlock = terminalPinBlock(pin, card.pan, underKey ?? terminalKey.keyForTerminal);
      return accepted({ ...card, pinBlock, pinKeyUnderLmk: terminalKey.keyUnderLmk });
    };
    const decide = async (transaction: ReturnType<typeof accepted>) => {
      await app.get(PosTransactionsConsumer).handle(transaction);
      return decisions(transaction.payload.reference);
    };
    const answered = async (rrn: string) => (await host.messages(rrn)).map((message) => [message.mti, message.de39]);
    /** What each test sent to the sandbox network. */
    let authorise: jest.SpyInstance<Promise<unknown>, [AuthorisationRequest]>;
    const sent = (rrn?: string) =>
      authorise.mock.calls.map(([request]) => request).filter((request) => !rrn || request.trace.rrn === rrn);
    beforeEach(() => {
      authorise = jest.spyOn(app.get(CardNetworks).byName('sandbox'), 'authorise');
    });
    afterEach(() => authorise.mockRestore());

    it('sends the right PIN under the zone key (DE52), and the host approves it', async () => {
      const transaction = await withPin('1234');
      expect(await decide(transaction)).toEqual([
        { approved: true, declineReason: null, event: expect.objectContaining({ approved: true }) },
      ]);
      const { rrn } = await networkRequest(transaction.payload.reference);
      expect(sent(rrn)).toEqual([
        expect.objectContaining({ entryMode: 'chip-pin', pinBlock: terminalPinBlock('1234', card.pan, zonePinKey) }),
      ]);
      expect(await answered(rrn)).toEqual([['0200', '00']]);
    });

    it('fails a wrong PIN as the host answers it: 55, "Incorrect PIN"', async () => {
      const transaction = await withPin('9999');
      const reason = 'Incorrect PIN';
      expect(await decide(transaction)).toEqual([
        { approved: false, declineReason: reason, event: expect.objectContaining({ declineReason: reason }) },
      ]);
      const request = await networkRequest(transaction.payload.reference);
      expect(request).toMatchObject({ state: 'declined', response_code: '55' });
      expect(await answered(request.rrn)).toEqual([['0200', '55']]);
    });

    it('fails a block that is not under the terminal’s key without sending anything', async () => {
      const transaction = await withPin('1234', randomBytes(16).toString('hex'));
      const reason = 'The PIN could not be verified';
      expect(await decide(transaction)).toEqual([
        { approved: false, declineReason: reason, event: expect.objectContaining({ declineReason: reason }) },
      ]);
      expect(await networkRequest(transaction.payload.reference)).toBeUndefined();
      expect(sent()).toEqual([]);
    });

    it('approves a chip card without a PIN when the block is the literal null', async () => {
      const { keyUnderLmk } = await hsm.generateTerminalKey();
      const transaction = accepted({ ...card, pinBlock: 'null', pinKeyUnderLmk: keyUnderLmk });
      expect(await decide(transaction)).toEqual([
        { approved: true, declineReason: null, event: expect.objectContaining({ approved: true }) },
      ]);
      const { rrn } = await networkRequest(transaction.payload.reference);
      expect(sent(rrn)).toEqual([expect.objectContaining({ entryMode: 'chip', pinBlock: undefined })]);
      expect(await answered(rrn)).toEqual([['0200', '00']]);
    });
  });
});
