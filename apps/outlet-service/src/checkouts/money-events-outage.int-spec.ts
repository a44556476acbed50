import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  BusinessProvisionedV1,
  CardChargeSucceededV1,
  deadLetterTopicOf,
  PosTransactionDecidedV1,
  Topics,
} from '@payments/contracts';
import { createKafkaClient } from '@payments/platform-kafka';
import { eventually, PrivateBroker, PrivatePostgres, startTestApp, testEvent } from '@payments/testing';
import { Partitioners, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';

import { outletServiceApp } from '../app';
import { BusinessEventsConsumer } from '../businesses/business-events.consumer';
import { OutletsService } from '../outlets/outlets.service';

jest.setTimeout(240_000);

/**
 * Money events keep arriving while the database is away: each must wait and then be booked
 * exactly once, never parked. A PostgreSQL and a broker of the test's own, so stopping them
 * disturbs no other suite.
 */
describe('card successes and POS credits while PostgreSQL is down for 20 s', () => {
  const postgres = new PrivatePostgres(15439);
  const broker = new PrivateBroker(19196);
  let app: NestFastifyApplication;
  let producer: Producer;

  beforeAll(async () => {
    await Promise.all([postgres.start(), broker.start()]);
    ({ app } = await startTestApp(
      { ...outletServiceApp, kafkaConsumer: true },
      { DATABASE_URL: postgres.url, KAFKA_BROKERS: broker.brokers, DATABASE_POOL_SIZE: '4' },
    ));
    producer = createKafkaClient({ brokers: [broker.brokers], clientId: 'outage-test' }).producer({
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await app?.close();
    await Promise.all([postgres.destroy(), broker.destroy()]);
  });

  it('books every one exactly once after the database returns, and parks nothing', async () => {
    const businessId = ulid();
    await app.get(BusinessEventsConsumer).handle(
      testEvent(BusinessProvisionedV1, {
        businessId,
        name: 'Outage Ltd',
        mode: 'test',
        webhookUrl: null,
        sealedApiKey: 'x',
        sealedPosEncryptionKey: 'x',
      }) as never,
    );
    const outlet = await app
      .get(OutletsService)
      .create(businessId, { accountName: 'Outage Outlet' }, undefined, ulid());
    const cardEvents = Array.from({ length: 10 }, (_, i) =>
      testEvent(CardChargeSucceededV1, {
        chargeId: ulid(),
        businessId,
        checkoutReference: `CHK-${ulid()}`,
        amount: String(1000 + i),
        maskedPan: '506099*********0019',
        succeededAt: new Date().toISOString(),
      }),
    );
    const posEvents = Array.from({ length: 10 }, (_, i) =>
      testEvent(PosTransactionDecidedV1, {
        reference: `POS-${ulid()}`,
        businessId,
        serialNumber: 'SN-OUTAGE',
        outletId: outlet.outletId,
        amount: String(2000 + i),
        maskedPan: '506146*********3210',
        approved: true,
        declineReason: null,
        decidedAt: new Date().toISOString(),
      }),
    );

    await postgres.stop();
    // Redelivered duplicates ride along: they must not book twice either.
    const send = (topic: string, events: object[]) =>
      producer.send({
        topic,
        acks: -1,
        messages: events.map((event) => ({ key: businessId, value: JSON.stringify(event) })),
      });
    await send(Topics.cardCharges.name, [...cardEvents, ...cardEvents.slice(0, 3)]);
    await send(Topics.posOutcomes.name, [...posEvents, ...posEvents.slice(0, 3)]);
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    await postgres.start();

    const dataSource = app.get(DataSource);
    const entries = async (kind: string) =>
      Number(
        (
          await dataSource.query(`SELECT count(*) FROM outlets.journal_entries WHERE business_id = $1 AND kind = $2`, [
            businessId,
            kind,
          ])
        )[0].count,
      );
    await eventually(
      async () => ((await entries('checkout')) === 10 && (await entries('pos')) === 10 ? true : undefined),
      120_000,
    );
    // Give any straggler a moment to show up as a second booking.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect([await entries('checkout'), await entries('pos')]).toEqual([10, 10]);

    const admin = createKafkaClient({ brokers: [broker.brokers], clientId: 'outage-test-admin' }).admin();
    await admin.connect();
    try {
      for (const topic of [Topics.cardCharges, Topics.posOutcomes]) {
        const offsets = await admin.fetchTopicOffsets(deadLetterTopicOf(topic).name);
        expect({ topic: topic.name, parked: offsets.reduce((sum, { high }) => sum + Number(high), 0) }).toEqual({
          topic: topic.name,
          parked: 0,
        });
      }
    } finally {
      await admin.disconnect();
    }
  });
});
