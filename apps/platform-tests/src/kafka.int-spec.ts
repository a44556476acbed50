import { allTopics } from '@payments/contracts';
import { applyTopics, createKafkaClient, StickyKeylessPartitioner, topicShortfalls } from '@payments/platform-kafka';
import { eventually, KafkaCollector, testEnvironment, uniqueName } from '@payments/testing';
import { Admin, ConfigResourceTypes, Partitioners } from 'kafkajs';

const brokers = testEnvironment().KAFKA_BROKERS!;

describe('kafkajs 2.2.4 against the local broker', () => {
  const kafka = createKafkaClient({ brokers: brokers.split(','), clientId: uniqueName('compat') });
  let admin: Admin;

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(() => admin.disconnect());

  it('is the kafkajs version the platform is pinned to', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(require('kafkajs/package.json').version).toBe('2.2.4');
  });

  it('describes the cluster through the broker listener', async () => {
    const cluster = await admin.describeCluster();
    expect(cluster.brokers.length).toBeGreaterThan(0);
    expect(cluster.controller).not.toBeNull();
  });

  it('round-trips messages with an idempotent producer and a consumer group', async () => {
    const topic = { name: uniqueName('compat'), partitions: 3 };
    await applyTopics(admin, [topic]);
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    await producer.send({
      topic: topic.name,
      acks: -1,
      messages: Array.from({ length: 30 }, (_, i) => ({
        key: `k${i % 5}`,
        value: JSON.stringify({ eventId: `e${i}` }),
        headers: { n: String(i) },
      })),
    });
    await producer.disconnect();

    const collector = await new KafkaCollector(brokers, topic.name).start();
    try {
      const deadline = Date.now() + 30_000;
      while (collector.messages.length < 30 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(collector.eventIds().size).toBe(30);
      expect(collector.messages.find((message) => message.headers.n === '7')?.key).toBe('k2');
    } finally {
      await collector.stop();
    }
  });

  it('writes the keyless messages of one send to one partition, and those of the next send to another', async () => {
    const topic = { name: uniqueName('sticky'), partitions: 6 };
    await applyTopics(admin, [topic]);
    const producer = kafka.producer({ createPartitioner: StickyKeylessPartitioner });
    await producer.connect();
    const messages = Array.from({ length: 12 }, (_, i) => ({ value: `command ${i}` }));
    await producer.sendBatch({ acks: -1, topicMessages: [{ topic: topic.name, messages }] });
    await producer.sendBatch({ acks: -1, topicMessages: [{ topic: topic.name, messages }] });
    await producer.disconnect();

    // A loaded broker may answer "not the leader" for a moment after creating the topic: ask again.
    const offsets = await eventually(() => admin.fetchTopicOffsets(topic.name).catch(() => undefined));
    const written = offsets.map(({ high }) => Number(high)).filter(Boolean);
    expect(written).toEqual([12, 12]);
  });

  it('creates every platform topic with its declared partitions, and nothing by auto-create', async () => {
    await applyTopics(admin, allTopics);
    const metadata = await admin.fetchTopicMetadata({ topics: allTopics.map((topic) => topic.name) });
    for (const topic of allTopics) {
      expect(metadata.topics.find((actual) => actual.name === topic.name)?.partitions).toHaveLength(topic.partitions);
    }
    const producer = kafka.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: 1 },
    });
    await producer.connect();
    await expect(producer.send({ topic: uniqueName('undeclared'), messages: [{ value: 'x' }] })).rejects.toThrow();
    await producer.disconnect();
  });

  it('keeps sealed card data on Kafka for hours at most, on every topic and dead-letter topic that carries it', async () => {
    await applyTopics(admin, allTopics);
    const sealed = ['card.commands.v1', 'card.commands.v1.dlq', 'pos.transactions.v1', 'pos.transactions.v1.dlq'];
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: sealed.map((name) => ({
        type: ConfigResourceTypes.TOPIC,
        name,
        configNames: ['retention.ms', 'segment.ms', 'cleanup.policy'],
      })),
    });
    const sixHours = 6 * 60 * 60 * 1000;
    for (const resource of resources) {
      const config = Object.fromEntries(resource.configEntries.map((entry) => [entry.configName, entry.configValue]));
      // A segment is deleted only once it is rolled: the roll interval bounds how long data really stays.
      expect({
        topic: resource.resourceName,
        within: Number(config['retention.ms']) + Number(config['segment.ms']) <= sixHours + 60 * 60 * 1000,
      }).toEqual({
        topic: resource.resourceName,
        within: true,
      });
      expect(config['cleanup.policy']).toBe('delete');
    }
  });

  it('applies a declared configuration to a topic created before it was declared', async () => {
    const name = uniqueName('retention');
    await applyTopics(admin, [{ name, partitions: 1 }]);
    await applyTopics(admin, [{ name, partitions: 1, config: { 'retention.ms': '600000', 'segment.ms': '300000' } }]);
    const declared = { 'retention.ms': '600000', 'segment.ms': '300000' };
    const described = async () => {
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name, configNames: ['retention.ms', 'segment.ms'] }],
      });
      return Object.fromEntries(resources[0].configEntries.map((entry) => [entry.configName, entry.configValue]));
    };
    // The controller commits the change; the broker answering describeConfigs learns it from the
    // metadata log a moment later, longer on a busy machine.
    const seen = await eventually(async () => {
      const config = await described();
      return config['retention.ms'] === declared['retention.ms'] ? config : undefined;
    }, 10_000).catch(described);
    expect(seen).toEqual(declared);
  });

  it("changes only the settings it declares: an operator's own setting stays, and the in-sync minimum follows the cluster", async () => {
    const name = uniqueName('operator');
    await applyTopics(admin, [{ name, partitions: 1 }]);
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        { type: ConfigResourceTypes.TOPIC, name, configEntries: [{ name: 'max.message.bytes', value: '2000000' }] },
      ],
    });
    const changes = await applyTopics(admin, [{ name, partitions: 1, config: { 'retention.ms': '600000' } }]);
    expect(changes).toEqual({ created: [], grown: [], reconfigured: [name], notes: [] });
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name,
          configNames: ['retention.ms', 'max.message.bytes', 'min.insync.replicas'],
        },
      ],
    });
    // One broker here: one copy of each partition, so one in sync.
    expect(
      Object.fromEntries(resources[0].configEntries.map((entry) => [entry.configName, entry.configValue])),
    ).toEqual({ 'retention.ms': '600000', 'max.message.bytes': '2000000', 'min.insync.replicas': '1' });
    expect(await applyTopics(admin, [{ name, partitions: 1, config: { 'retention.ms': '600000' } }])).toEqual({
      created: [],
      grown: [],
      reconfigured: [],
      notes: [],
    });
  });

  it('tells an app which topics it cannot use yet: missing, or with fewer partitions than declared', async () => {
    const [missing, short] = [uniqueName('missing'), uniqueName('short')];
    await applyTopics(admin, [{ name: short, partitions: 1 }]);
    expect(
      await topicShortfalls(admin, [
        { name: missing, partitions: 1 },
        { name: short, partitions: 3 },
      ]),
    ).toEqual([`${missing} is missing`, `${short} has 1 partitions, 3 declared`]);
    expect(await topicShortfalls(admin, [{ name: short, partitions: 1 }])).toEqual([]);
  });

  it('grows a topic that has fewer partitions than declared, and is safe to repeat', async () => {
    const name = uniqueName('grow');
    await applyTopics(admin, [{ name, partitions: 1 }]);
    await applyTopics(admin, [{ name, partitions: 4 }]);
    await applyTopics(admin, [{ name, partitions: 4 }]);
    const metadata = await admin.fetchTopicMetadata({ topics: [name] });
    expect(metadata.topics[0].partitions).toHaveLength(4);
  });
});
