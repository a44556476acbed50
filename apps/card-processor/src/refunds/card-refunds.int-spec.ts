import { randomBytes } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  CardRefundDecidedV1Payload,
  CardRefundRequestedV1,
  PosTransactionAcceptedV1,
  Topics,
} from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { DevHost, eventually, freePorts, startDevHost, startTestApp, testEvent } from '@payments/testing';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';

import { cardProcessorApp } from '../app';
import { CardNetworks } from '../card-network/card-networks';
import { PosTransactionsConsumer } from '../pos/pos-transactions.consumer';
import { CARD_SEALER } from '../tokens';
import { CardRefundsConsumer } from './card-refunds.consumer';

/** Refunds of card payments paid back through a development card host of the test's own. */
describe('card refunds on the card network', () => {
  let app: NestFastifyApplication;
  let host: DevHost;

  beforeAll(async () => {
    const [port, controlPort] = await freePorts(2);
    host = await startDevHost({ port, controlPort, zonePinKey: randomBytes(16).toString('hex') });
    ({ app } = await startTestApp(
      { ...cardProcessorApp, kafkaConsumer: false },
      { CARD_NETWORK_SANDBOX_ADDRESS: host.address, CARD_NETWORK_TIMEOUT_MS: '1500' },
    ));
    await eventually(async () => (app.get(CardNetworks).byName('sandbox').isReady() ? true : undefined), 20_000);
  });

  afterAll(async () => {
    await app?.close();
    await host?.stop();
  });

  const query = <T>(sql: string, parameters: unknown[]) => app.get(DataSource).query(sql, parameters) as Promise<T[]>;

  /** A POS purchase the host approved, for `businessId`. */
  async function approvedPurchase(businessId: string, pan = '5060990000000000019', amount = '50000') {
    const reference = `POS-${ulid()}`;
    await app.get(PosTransactionsConsumer).handle(
      testEvent(PosTransactionAcceptedV1, {
        businessId,
        reference,
        serialNumber: 'SN-REFUND-1',
        outletId: null,
        amount,
        maskedPan: `${pan.slice(0, 6)}*****${pan.slice(-4)}`,
        mode: 'test',
        sequenceNumber: '001',
        accountType: 'savings',
        cardHolderName: 'ADA OBI',
        aid: 'A0000000041010',
        institutionCode: '627821',
        sealedCard: app
          .get<Sealer>(CARD_SEALER)
          .seal(
            JSON.stringify({ pan, cardExpiryDate: '3012', pinBlock: 'null', track2Data: '', iccData: '' }),
            reference,
          ),
      }),
    );
    const [purchase] = await query<{ state: string; rrn: string }>(
      `SELECT state, rrn FROM card_processor.network_requests WHERE purpose = 'pos' AND payment_reference = $1`,
      [reference],
    );
    expect(purchase.state).toBe('approved');
    return { reference, rrn: purchase.rrn };
  }

  const refundRequest = (businessId: string, paymentReference: string, amount: string) =>
    testEvent(CardRefundRequestedV1, {
      businessId,
      refundReference: `RFD-${ulid()}`,
      paymentKind: 'pos' as const,
      paymentReference,
      amount,
      requestedAt: new Date().toISOString(),
    });

  /** What card-processor told outlet-service about the refund: its events, and the request it sent. */
  async function outcome(refundReference: string) {
    const events = await query<{ payload: { payload: CardRefundDecidedV1Payload } }>(
      `SELECT payload FROM card_processor.outbox WHERE topic = $1 AND payload->'payload'->>'refundReference' = $2`,
      [Topics.cardRefundOutcomes.name, refundReference],
    );
    const [request] = await query<{
      state: string;
      response_code: string | null;
      processing_code: string;
      rrn: string;
      sealed_pan: string | null;
    }>(
      `SELECT state, response_code, processing_code, rrn, sealed_pan FROM card_processor.network_requests WHERE purpose = 'refund' AND payment_reference = $1`,
      [refundReference],
    );
    return { events: events.map((row) => row.payload.payload), request };
  }

  it('pays a refund back to the purchase’s card with a 0200 naming the purchase, once however often it is asked', async () => {
    const businessId = ulid();
    const purchase = await approvedPurchase(businessId);
    const refund = refundRequest(businessId, purchase.reference, '20000');
    const consumer = app.get(CardRefundsConsumer);
    await Promise.all([consumer.handle(refund), consumer.handle({ ...refund, eventId: ulid() })]);
    const { events, request } = await outcome(refund.payload.refundReference);
    expect(events).toEqual([expect.objectContaining({ businessId, approved: true, declineReason: null })]);
    // Only a purchase's card is kept (for its refunds): a refund's goes once it is approved.
    expect(request).toMatchObject({
      state: 'approved',
      response_code: '00',
      processing_code: '201000',
      sealed_pan: null,
    });
    expect((await host.messages(request.rrn)).map((message) => [message.mti, message.de39])).toEqual([['0200', '00']]);
  });

  it('fails a refund the host refuses, and one of a payment the network never approved, without sending it', async () => {
    const businessId = ulid();
    const purchase = await approvedPurchase(businessId);
    const consumer = app.get(CardRefundsConsumer);
    const tooMuch = refundRequest(businessId, purchase.reference, '50001');
    await consumer.handle(tooMuch);
    expect((await outcome(tooMuch.payload.refundReference)).events).toEqual([
      expect.objectContaining({ approved: false, declineReason: 'Declined by the card network (code 13)' }),
    ]);
    // Another business's refund of this purchase, and one of a payment nobody approved: no request leaves.
    for (const refund of [
      refundRequest(ulid(), purchase.reference, '100'),
      refundRequest(businessId, 'POS-NONE', '100'),
    ]) {
      await consumer.handle(refund);
      const { events, request } = await outcome(refund.payload.refundReference);
      expect(events).toEqual([expect.objectContaining({ approved: false })]);
      expect(events[0].declineReason).toMatch(/not approved by the card network/);
      expect(request).toBeUndefined();
    }
  });

  it('fails a refund whose answer never comes, and reverses it', async () => {
    const businessId = ulid();
    const pan = '5060990000000000068';
    const purchase = await approvedPurchase(businessId, pan);
    await host.faults([{ pan, action: 'drop' }]);
    try {
      const refund = refundRequest(businessId, purchase.reference, '10000');
      await app.get(CardRefundsConsumer).handle(refund);
      const { events, request } = await outcome(refund.payload.refundReference);
      expect(events).toEqual([expect.objectContaining({ approved: false })]);
      expect(events[0].declineReason).toMatch(/reversed/);
      await eventually(
        async () => ((await outcome(refund.payload.refundReference)).request.state === 'reversed' ? true : undefined),
        20_000,
      );
      expect((await host.messages(request.rrn)).map((message) => message.mti)).toEqual(['0200', '0420']);
    } finally {
      await host.clearFaults();
    }
  });
});
