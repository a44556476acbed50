import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PosSealedCard, PosTransactionAcceptedV1, PosTransactionDecidedV1Payload } from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { startTestApp, testEvent } from '@payments/testing';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';

import { cardProcessorApp } from '../app';
import { CARD_SEALER } from '../tokens';
import { PosTransactionsConsumer } from './pos-transactions.consumer';

/** card-processor's decision on an accepted POS transaction: stored and announced once per reference. */
describe('POS transaction decisions', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    ({ app } = await startTestApp({ ...cardProcessorApp, kafkaConsumer: false }));
  });

  afterAll(() => app.close());

  const accepted = (card: Pick<PosSealedCard, 'pan' | 'cardExpiryDate'>) => {
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
      sealedCard: app.get<Sealer>(CARD_SEALER).seal(JSON.stringify(card), reference),
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

  it('stores an approval and queues its event, once however often the transaction is delivered', async () => {
    const transaction = accepted({ pan: '5060990000000000019', cardExpiryDate: '3012' });
    const consumer = app.get(PosTransactionsConsumer);
    await consumer.handle(transaction);
    await consumer.handle({ ...transaction, eventId: ulid() });
    expect(await decisions(transaction.payload.reference)).toEqual([
      {
        approved: true,
        declineReason: null,
        event: expect.objectContaining({ reference: transaction.payload.reference, approved: true, amount: '2500' }),
      },
    ]);
  });

  it('stores a decline with its reason, and the event says why', async () => {
    const transaction = accepted({ pan: '5060990000000000019', cardExpiryDate: '2001' });
    await app.get(PosTransactionsConsumer).handle(transaction);
    expect(await decisions(transaction.payload.reference)).toEqual([
      {
        approved: false,
        declineReason: 'Expired card',
        event: expect.objectContaining({ approved: false, declineReason: 'Expired card' }),
      },
    ]);
  });
});
