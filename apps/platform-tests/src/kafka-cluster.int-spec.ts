import { allTopics, Topics } from '@payments/contracts';
import { applyTopics, consumerSettings } from '@payments/platform-kafka';
import { eventually, PrivateCluster, uniqueName } from '@payments/testing';
import { Admin, ConfigResourceTypes, Partitioners, Producer } from 'kafkajs';

jest.setTimeout(300_000);

/** The topics on a cluster of three: three copies of each partition, and a write waits for two. */
describe('the platform topics on a three-broker cluster', () => {
  const cluster = new PrivateCluster(19600, { admin: 'admin-secret' });
  let admin: Admin;
  let producer: Producer;

  beforeAll(async () => {
    await cluster.start();
    admin = cluster.client('cluster-admin').admin();
    await admin.connect();
    // The client's own retries: a broker that has not yet heard of a new topic, or a leader that
    // moved, is retried as any producer would.
    producer = cluster.client('cluster-producer').producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await admin?.disconnect();
    await cluster.destroy();
  });

  it('applies every topic with three replicas and two in sync', async () => {
    expect(await applyTopics(admin, allTopics)).toMatchObject({
      created: allTopics.map((topic) => topic.name),
      notes: [],
    });
    // Every broker learns of new topics from the controller a moment later: ask until the one asked has.
    const { topics } = await eventually(
      () => admin.fetchTopicMetadata({ topics: allTopics.map((topic) => topic.name) }).catch(() => undefined),
      30_000,
    );
    for (const topic of topics) {
      expect([topic.name, new Set(topic.partitions.map((partition) => partition.replicas.length))]).toEqual([
        topic.name,
        new Set([3]),
      ]);
    }
    const { resources } = await eventually(() =>
      admin
        .describeConfigs({
          includeSynonyms: false,
          resources: [
            { type: ConfigResourceTypes.TOPIC, name: Topics.partnerEvents.name, configNames: ['min.insync.replicas'] },
          ],
        })
        .catch(() => undefined),
    );
    expect(resources[0].configEntries[0].configValue).toBe('2');
  });

  it('takes writes with one broker down, and refuses them rather than keep one copy with two down', async () => {
    const topic = uniqueName('replicated');
    await applyTopics(admin, [{ name: topic, partitions: 1 }]);
    const write = (value: string) => producer.send({ topic, acks: -1, messages: [{ value }] });
    // Written once the cluster has settled: after a node is killed, until the controllers fence
    // it (3 s after its last heartbeat) a partition it led has no leader to take the write, and
    // the client's own retries can run out first on a busy machine. An app's retry covers that.
    const accepted = async (value: string) => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await write(value);
        } catch (error) {
          if (attempt >= 30) throw error;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    };
    await expect(write('all three up')).resolves.toHaveLength(1);

    await cluster.stopNode(3, { abruptly: true });
    await expect(accepted('one broker down')).resolves.toHaveLength(1);

    await cluster.stopNode(2);
    await expect(write('two brokers down')).rejects.toThrow(/in-sync replicas|NOT_ENOUGH_REPLICAS|leader/i);

    await cluster.startNode(2);
    await cluster.startNode(3);
    // Back in sync: writes are taken again, and nothing written before was lost.
    await expect(accepted('all back')).resolves.toHaveLength(1);
    const [{ high }] = await admin.fetchTopicOffsets(topic);
    expect(Number(high)).toBe(3);
  });

  it('keeps a consumer in its group when the broker coordinating the group stops', async () => {
    const topic = uniqueName('coordinated');
    const groupId = uniqueName('coordinated');
    await applyTopics(admin, [{ name: topic, partitions: 1 }]);
    // The brokers the test before restarted may still be loading the group offsets they lead
    // (COORDINATOR_LOAD_IN_PROGRESS): what is under test is a coordinator stopping, not that.
    await eventually(
      () =>
        admin.describeGroups([groupId]).then(
          () => true,
          () => undefined,
        ),
      60_000,
    );
    // Heartbeats five times a second, so some reach the broker while it hands the group over:
    // for a few seconds it answers NOT_COORDINATOR while lookups still name it.
    const consumer = cluster.client('cluster-consumer').consumer({
      groupId,
      ...consumerSettings,
      heartbeatInterval: 200,
      maxWaitTimeInMs: 200,
    });
    let joins = 0;
    let crashes = 0;
    let heartbeats = 0;
    consumer.on(consumer.events.GROUP_JOIN, () => (joins += 1));
    consumer.on(consumer.events.CRASH, () => (crashes += 1));
    consumer.on(consumer.events.HEARTBEAT, () => (heartbeats += 1));
    const received: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void received.push(String(message.value)) });
    let stopped: number | undefined;
    try {
      await producer.send({ topic, acks: -1, messages: [{ value: 'before' }] });
      await eventually(() => (received.includes('before') ? true : undefined), 60_000);
      expect(joins).toBe(1);

      // Every group here is coordinated by the leader of the one offsets partition (kafka.sh).
      const { topics } = await admin.fetchTopicMetadata({ topics: ['__consumer_offsets'] });
      stopped = topics[0].partitions[0].leader;
      await cluster.stopNode(stopped);
      const heartbeatsBefore = heartbeats;
      await producer.send({ topic, acks: -1, messages: [{ value: 'after' }] });
      await eventually(
        () => (received.includes('after') && heartbeats >= heartbeatsBefore + 2 ? true : undefined),
        60_000,
      );

      // The member followed the coordinator to another broker in its generation: kafkajs alone
      // rejoined the group (a rebalance), or kept retrying the stopped broker and crashed.
      expect({ joins, crashes }).toEqual({ joins: 1, crashes: 0 });
    } finally {
      await consumer.disconnect();
      if (stopped !== undefined) await cluster.startNode(stopped);
    }
  });
});
