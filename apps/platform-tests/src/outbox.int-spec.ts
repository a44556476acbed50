import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

import { TopicSpec } from '@payments/contracts';
import { ensureDatabase, postgresOptions } from '@payments/platform-database';
import { applyTopics, createKafkaClient } from '@payments/platform-kafka';
import {
  Outbox,
  outboxEntities,
  OutboxMessage,
  OutboxRelay,
  OutboxRelayOptions,
  outboxTablesV1,
  ProcessedEvents,
} from '@payments/platform-outbox';
import { eventually, KafkaCollector, PrivateBroker, testEnvironment, uniqueName } from '@payments/testing';
import { DataSource, EntityManager } from 'typeorm';

jest.setTimeout(120_000);

const { DATABASE_URL, KAFKA_BROKERS } = testEnvironment() as { DATABASE_URL: string; KAFKA_BROKERS: string };

/** A private schema with the real outbox tables and one business table to change. */
async function scratchSchema(): Promise<DataSource> {
  const schema = uniqueName('outbox_test');
  await ensureDatabase(DATABASE_URL);
  const dataSource = await new DataSource(
    postgresOptions(DATABASE_URL, 12, { schema, entities: outboxEntities, migrations: [] }),
  ).initialize();
  await dataSource.query(`CREATE SCHEMA "${schema}"`);
  for (const statement of outboxTablesV1(schema)) await dataSource.query(statement);
  await dataSource.query(`CREATE TABLE "${schema}"."payments" (id serial PRIMARY KEY, reference text NOT NULL UNIQUE)`);
  return dataSource;
}

async function createTopic(brokers: string): Promise<TopicSpec> {
  const topic = { name: uniqueName('outbox.test'), partitions: 3 };
  const admin = createKafkaClient({ brokers: [brokers], clientId: uniqueName('admin') }).admin();
  await admin.connect();
  await applyTopics(admin, [topic]);
  await admin.disconnect();
  return topic;
}

const outbox = new Outbox();

/** One state change and its event, in one transaction per event. */
async function commitPayments(dataSource: DataSource, topic: TopicSpec, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    await dataSource.transaction(async (em) => {
      const reference = uniqueName('pay');
      await em.query(`INSERT INTO ${schemaOf(em)}.payments (reference) VALUES ($1)`, [reference]);
      const event = await outbox.enqueue(em, {
        topic,
        type: 'payment.recorded',
        key: reference,
        payload: { reference },
      });
      ids.push(event.eventId);
    });
  }
  return ids;
}

function schemaOf(em: EntityManager): string {
  return (em.connection.options as { schema: string }).schema;
}

const unpublishedCount = async (dataSource: DataSource) =>
  Number(
    (
      await dataSource.query(
        `SELECT count(*) FROM ${dataSource.getMetadata(OutboxMessage).tablePath} WHERE published_at IS NULL`,
      )
    )[0].count,
  );

describe('transactional outbox', () => {
  let dataSource: DataSource;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeEach(async () => {
    dataSource = await scratchSchema();
    cleanups.push(() => dataSource.destroy());
  });

  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
  });

  /** A relay on `brokers` over this test's schema, running until the test ends. */
  const startRelay = (brokers: string, options: OutboxRelayOptions) => {
    const relay = new OutboxRelay(dataSource, createKafkaClient({ brokers: [brokers], clientId: 'relay' }), options);
    relay.start();
    cleanups.push(() => relay.stop());
  };

  it('stores the event only when the state change commits', async () => {
    const topic = { name: 'never.published', partitions: 1 };
    await commitPayments(dataSource, topic, 1);
    await expect(
      dataSource.transaction(async (em) => {
        await em.query(`INSERT INTO ${schemaOf(em)}.payments (reference) VALUES ('rolled-back')`);
        await outbox.enqueue(em, { topic, type: 'payment.recorded', key: 'rolled-back', payload: {} });
        throw new Error('the change fails after the event was added');
      }),
    ).rejects.toThrow('the change fails');
    expect(await dataSource.getRepository(OutboxMessage).count()).toBe(1);
    const [{ count }] = await dataSource.query(`SELECT count(*) FROM ${schemaOf(dataSource.manager)}.payments`);
    expect(Number(count)).toBe(1);
  });

  it('refuses to enqueue outside a transaction', async () => {
    await expect(
      outbox.enqueue(dataSource.manager, { topic: { name: 't', partitions: 1 }, type: 't', key: 'k', payload: {} }),
    ).rejects.toThrow('inside a transaction');
  });

  it('publishes committed events to Kafka with their id in a header and marks them sent', async () => {
    const topic = await createTopic(KAFKA_BROKERS);
    const collector = await new KafkaCollector(KAFKA_BROKERS, topic.name).start();
    cleanups.push(() => collector.stop());
    startRelay(KAFKA_BROKERS, { batchSize: 50, pollIntervalMs: 60_000 });

    // The poll interval is a minute: only the commit's NOTIFY can wake the relay this fast.
    const ids = await commitPayments(dataSource, topic, 20);
    await eventually(() => (collector.eventIds().size === 20 ? true : undefined), 15_000);

    expect(collector.eventIds()).toEqual(new Set(ids));
    const first = collector.messages[0];
    expect(ids).toContain(first.headers['event-id']);
    expect(JSON.parse(first.value)).toMatchObject({ type: 'payment.recorded', payload: { reference: first.key } });
    await eventually(async () => ((await unpublishedCount(dataSource)) === 0 ? true : undefined));
  });

  it('delivers every event committed while the broker was down once it is back', async () => {
    const broker = new PrivateBroker(19192);
    cleanups.push(() => broker.destroy());
    await broker.start();
    const topic = await createTopic(broker.brokers);
    await broker.stop();

    startRelay(broker.brokers, { batchSize: 100, pollIntervalMs: 200 });

    const ids = await commitPayments(dataSource, topic, 500);
    expect(await unpublishedCount(dataSource)).toBe(500);

    await broker.start();
    const collector = await new KafkaCollector(broker.brokers, topic.name).start();
    cleanups.push(() => collector.stop());
    await eventually(() => (collector.eventIds().size === 500 ? true : undefined), 90_000);

    expect(collector.eventIds()).toEqual(new Set(ids));
    await eventually(async () => ((await unpublishedCount(dataSource)) === 0 ? true : undefined));
  });

  it('loses nothing when the relay process is killed mid-batch', async () => {
    const topic = await createTopic(KAFKA_BROKERS);
    const ids = await commitPayments(dataSource, topic, 500);
    const schema = (dataSource.options as { schema: string }).schema;
    const fixture = resolve(__dirname, '../../../libs/testing/fixtures/outbox-relay-process.cjs');
    const child: ChildProcess = spawn(process.execPath, [fixture, DATABASE_URL, schema, KAFKA_BROKERS, '25', '40'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise((done) => child.once('exit', done));

    // Kill it once it has published some batches but long before it could finish.
    await eventually(async () => ((await unpublishedCount(dataSource)) <= 450 ? true : undefined), 30_000);
    child.kill('SIGKILL');
    await exited;
    const leftAfterKill = await unpublishedCount(dataSource);
    expect(leftAfterKill).toBeGreaterThan(0);

    const collector = await new KafkaCollector(KAFKA_BROKERS, topic.name).start();
    cleanups.push(() => collector.stop());
    startRelay(KAFKA_BROKERS, { batchSize: 100, pollIntervalMs: 200 });

    await eventually(() => (collector.eventIds().size === 500 ? true : undefined), 30_000);
    expect(collector.eventIds()).toEqual(new Set(ids));
    expect(await unpublishedCount(dataSource)).toBe(0);
  });

  it('lets a consumer apply each event id once, even when redelivered concurrently', async () => {
    const processed = new ProcessedEvents();
    const eventId = '3b241101-e2bb-4255-8caf-4136c566a962';
    const apply = () =>
      dataSource.transaction(async (em) => {
        if (!(await processed.firstDelivery(em, 'ledger', eventId))) return false;
        await em.query(`INSERT INTO ${schemaOf(em)}.payments (reference) VALUES ($1)`, [uniqueName('applied')]);
        return true;
      });

    const outcomes = await Promise.all(Array.from({ length: 8 }, apply));

    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const [{ count }] = await dataSource.query(`SELECT count(*) FROM ${schemaOf(dataSource.manager)}.payments`);
    expect(Number(count)).toBe(1);
    expect(await dataSource.transaction((em) => processed.firstDelivery(em, 'another-consumer', eventId))).toBe(true);
  });

  it('prunes sent rows and dedupe records past their retention, and nothing else', async () => {
    const schema = schemaOf(dataSource.manager);
    const row = (id: string, created: string, published: string | null) =>
      dataSource.query(
        `INSERT INTO "${schema}".outbox (id, topic, payload, created_at, published_at) VALUES ($1, 't', '{}', now() - $2::interval, now() - $3::interval)`,
        [id, created, published],
      );
    await row('00000000-0000-4000-8000-000000000001', '100 hours', '100 hours');
    await row('00000000-0000-4000-8000-000000000002', '99 hours', '99 hours');
    await row('00000000-0000-4000-8000-000000000003', '98 hours', '98 hours');
    await row('00000000-0000-4000-8000-000000000004', '2 hours', '2 hours');
    // Never sent (the broker was away for days): kept whatever its age.
    await row('00000000-0000-4000-8000-000000000005', '100 hours', null);
    for (const [id, age] of [
      ['00000000-0000-4000-8000-0000000000a1', '400 hours'],
      ['00000000-0000-4000-8000-0000000000a2', '350 hours'],
      ['00000000-0000-4000-8000-0000000000a3', '300 hours'],
    ]) {
      await dataSource.query(
        `INSERT INTO "${schema}".processed_events (consumer, event_id, processed_at) VALUES ('c', $1, now() - $2::interval)`,
        [id, age],
      );
    }

    const relay = new OutboxRelay(
      dataSource,
      createKafkaClient({ brokers: [KAFKA_BROKERS], clientId: uniqueName('relay') }),
      { batchSize: 10, pollIntervalMs: 1000 },
    );
    // Batches of two: the sent rows take two rounds.
    expect(await relay.prune({ sentHours: 72, processedHours: 336 }, 2)).toBe(5);

    const outbox = await dataSource.query(`SELECT id FROM "${schema}".outbox ORDER BY id`);
    expect(outbox.map((kept: { id: string }) => kept.id)).toEqual([
      '00000000-0000-4000-8000-000000000004',
      '00000000-0000-4000-8000-000000000005',
    ]);
    const processed = await dataSource.query(`SELECT event_id FROM "${schema}".processed_events`);
    expect(processed).toEqual([{ event_id: '00000000-0000-4000-8000-0000000000a3' }]);
  });
});
