import { applyTopics, createKafkaClient, PeriodicCommits } from '@payments/platform-kafka';
import { testEnvironment, uniqueName } from '@payments/testing';
import { Admin, Consumer, Kafka, Partitioners, Producer } from 'kafkajs';

const brokers = testEnvironment().KAFKA_BROKERS!.split(',');

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A consumer that resolves every message and leaves committing to PeriodicCommits, as KafkaConsumers does. */
async function consumerOf(kafka: Kafka, topic: string) {
  const consumer = kafka.consumer({ groupId: uniqueName('commits'), maxWaitTimeInMs: 100 });
  const commits = new PeriodicCommits(consumer);
  const seen = { messages: 0, batches: 0, commitRequests: 0 };
  consumer.on(consumer.events.COMMIT_OFFSETS, () => (seen.commitRequests += 1));
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async (payload) => {
      commits.track(payload);
      seen.batches += 1;
      for (const message of payload.batch.messages) {
        payload.resolveOffset(message.offset);
        seen.messages += 1;
      }
    },
  });
  return { consumer, commits, seen };
}

describe('PeriodicCommits on the local broker', () => {
  const kafka = createKafkaClient({ brokers, clientId: uniqueName('commits') });
  let admin: Admin;
  let producer: Producer;
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    admin = kafka.admin();
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await Promise.all([admin.connect(), producer.connect()]);
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.disconnect()));
    await Promise.all([admin.disconnect(), producer.disconnect()]);
  });

  const committed = async (consumer: Consumer, topic: string) => {
    const { groupId } = await consumer.describeGroup();
    const [{ partitions }] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return Number(partitions[0].offset);
  };

  it("commits far fewer times than it takes batches, and an idle consumer's last offsets too", async () => {
    const topic = uniqueName('commits');
    await applyTopics(admin, [{ name: topic, partitions: 1 }]);
    const { consumer, commits, seen } = await consumerOf(kafka, topic);
    consumers.push(consumer);
    commits.start();
    // One message at a time, each sent after the last was consumed: a batch each.
    for (let sent = 1; sent <= 20; sent += 1) {
      await producer.send({ topic, acks: -1, messages: [{ value: String(sent) }] });
      await until(() => seen.messages === sent, `message ${sent}`);
    }
    expect(seen.batches).toBe(20);
    await until(async () => (await committed(consumer, topic)) === 20, 'offset 20 committed while idle');
    expect(seen.commitRequests).toBeLessThanOrEqual(10);
    await commits.stop();
  });

  it('commits what is resolved when stopped, with no tick in between', async () => {
    const topic = uniqueName('commits');
    await applyTopics(admin, [{ name: topic, partitions: 1 }]);
    const { consumer, commits, seen } = await consumerOf(kafka, topic);
    consumers.push(consumer);
    await producer.send({ topic, acks: -1, messages: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
    await until(() => seen.messages === 3, 'three messages');
    expect(await committed(consumer, topic)).toBe(-1);
    await commits.stop();
    expect(await committed(consumer, topic)).toBe(3);
  });
});
