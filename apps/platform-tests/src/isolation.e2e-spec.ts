import { randomUUID } from 'node:crypto';

import { PosTransactionAcceptedV1, sealedCardOf, Topics } from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { createKafkaClient } from '@payments/platform-kafka';
import { eventually, queryTestDatabase, samplePosPayload, testEnvironment, testEvent } from '@payments/testing';
import { Partitioners } from 'kafkajs';

import { sharedSecrets, useApps } from './apps';
import { callGateway, onboardedPartner, PartnerCredentials } from './partners';

jest.setTimeout(240_000);

const backlog = 5000;

/** What pos-ingest publishes for an accepted submission, sealed with the platform's card key. */
async function queuePosTransactions(businessId: string, count: number): Promise<void> {
  const sealer = new Sealer(sharedSecrets.CARD_DATA_KEY);
  const producer = createKafkaClient({
    brokers: testEnvironment().KAFKA_BROKERS!.split(','),
    clientId: 'isolation-test',
  }).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const card = JSON.stringify(sealedCardOf(samplePosPayload()));
  try {
    for (let sent = 0; sent < count; sent += 500) {
      const messages = Array.from({ length: Math.min(500, count - sent) }, () => {
        const reference = `POS-ISOLATION-${randomUUID()}`;
        const serialNumber = `SN-ISO-${sent % 12}`;
        const payload = {
          reference,
          businessId,
          mode: 'test' as const,
          serialNumber,
          outletId: null,
          amount: '1000',
          sequenceNumber: reference,
          accountType: 'savings',
          cardHolderName: 'ISOLATION',
          aid: 'A0000003710001',
          institutionCode: '627629',
          maskedPan: '506146*********3210',
          sealedCard: sealer.seal(card, reference),
        };
        return {
          key: serialNumber,
          value: JSON.stringify(testEvent(PosTransactionAcceptedV1, payload)),
        };
      });
      await producer.send({ topic: Topics.posTransactions.name, acks: -1, messages });
    }
  } finally {
    await producer.disconnect();
  }
}

/**
 * Each traffic class has its own consumer, so card-processor answers a card payment while
 * thousands of POS transactions wait on another topic, instead of after them.
 */
describe('a backlog on one topic never delays commands on another', () => {
  useApps(['checkout-gateway', 'card-processor', 'outlet-service']);
  let partner: PartnerCredentials;

  beforeAll(async () => {
    partner = await onboardedPartner('Isolation Partner');
  });

  const decided = async () =>
    (
      await queryTestDatabase<{ count: number }>(
        `SELECT count(*)::int AS count FROM card_processor.pos_authorisations WHERE business_id = $1`,
        [partner.businessId],
      )
    )[0].count;

  it('answers a card payment while card-processor still has POS transactions queued, and then works through them', async () => {
    const checkout = await callGateway<{ reference: string }>(partner, 'POST', '/payin/charge/requests', {
      amount: '50000',
      accountName: 'Isolation',
      paymentMethod: ['card'],
    });
    await queuePosTransactions(partner.businessId, backlog);

    const payment = await callGateway<{ transactionStatus: string }>(
      partner,
      'POST',
      `/checkout/${checkout.body.data.reference}/card-payment`,
      {
        cardNumber: '5060990000000000019',
        expiryDate: '12/30',
        cvv: '123',
      },
    );
    const decidedWhenAnswered = await decided();
    expect([payment.status, payment.body.data.transactionStatus]).toEqual([200, 'SUCCESS']);
    expect(decidedWhenAnswered).toBeLessThan(backlog);

    await eventually(async () => ((await decided()) === backlog ? true : undefined), 180_000);
  });
});
