import { TopicSpec } from '@payments/contracts';
import { PlatformEnv } from '@payments/platform-config';
import { ConsumerMetrics, createKafkaClient, KafkaAdmin } from '@payments/platform-kafka';
import { Metrics } from '@payments/platform-metrics';
import { eventually, testEnvironment, uniqueName } from '@payments/testing';
import { Admin, Partitioners } from 'kafkajs';

const hour = 3_600_000;

/**
 * How old a group's backlog is, read from the brokers: an alert must fire on accepted POS
 * transactions waiting an hour, long before their topic's retention (6 h) could drop them.
 */
describe('the age of what a consumer group has not handled', () => {
  const kafka = createKafkaClient({
    brokers: testEnvironment().KAFKA_BROKERS!.split(','),
    clientId: uniqueName('lag-age'),
  });
  const topic: TopicSpec = { name: uniqueName('lag-age'), partitions: 2 };
  const groupId = uniqueName('lag-age-group');
  let admin: Admin;
  let kafkaAdmin: KafkaAdmin;
  const watchers: ConsumerMetrics[] = [];

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [topic.name, `${topic.name}.dlq`].map((name) => ({
        topic: name,
        numPartitions: name === topic.name ? 2 : 1,
      })),
    });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const at = (agoMs: number) => String(Date.now() - agoMs);
    await producer.send({
      topic: topic.name,
      messages: [
        { partition: 0, value: 'two hours old', timestamp: at(2 * hour) },
        { partition: 0, value: 'two hours old too', timestamp: at(2 * hour) },
        { partition: 0, value: 'ten minutes old', timestamp: at(10 * 60_000) },
        { partition: 1, value: 'new', timestamp: at(0) },
      ],
    });
    await producer.disconnect();
    kafkaAdmin = new KafkaAdmin(kafka, Object.assign(new PlatformEnv(), { SERVICE_NAME: 'lag-age-test' }));
    await kafkaAdmin.onModuleInit();
  });

  afterAll(async () => {
    for (const watcher of watchers) watcher.stop();
    await admin.deleteTopics({ topics: [topic.name, `${topic.name}.dlq`] }).catch(() => undefined);
    await admin.disconnect();
    await kafkaAdmin.onApplicationShutdown();
  });

  /** What a fresh watcher reports once it has read the brokers. */
  async function reportedAge(): Promise<number> {
    const metrics = new Metrics('test');
    const watcher = new ConsumerMetrics(metrics, kafkaAdmin);
    watchers.push(watcher);
    watcher.watch([{ groupId, topics: [topic] }]);
    return eventually(async () => {
      const gauge = await metrics.registry.getSingleMetric('kafka_consumer_lag_age_seconds')?.get();
      return gauge?.values.find((value) => value.labels.topic === topic.name)?.value;
    }, 20_000);
  }

  const handledUpTo = (offsets: [partition: number, offset: number][]) =>
    admin.setOffsets({
      groupId,
      topic: topic.name,
      partitions: offsets.map(([partition, offset]) => ({ partition, offset: String(offset) })),
    });

  it('says an hour while two-hour-old messages wait, five minutes once only the ten-minute-old one does, none when all are handled', async () => {
    expect(await reportedAge()).toBe(3600);
    await handledUpTo([[0, 2]]);
    expect(await reportedAge()).toBe(300);
    await handledUpTo([
      [0, 3],
      [1, 1],
    ]);
    expect(await reportedAge()).toBe(0);
  });
});
