import { deadLetterTopicOf } from '@payments/contracts';
import { IHeaders, Kafka, Partitioners } from 'kafkajs';

const dlqHeaders = new Set(['dlq-reason', 'dlq-source-offset']);

/**
 * Sends the messages parked on `<topic>.dlq` back to `<topic>`, with their key, value and
 * headers (event id included), once each: a consumer group per topic remembers how far replay
 * got, so a second run sends only what was parked since. Consumers apply an event id once, so
 * a message that had in fact been applied is skipped on arrival. Returns how many were sent.
 */
export async function replayDeadLetters(kafka: Kafka, topic: string): Promise<number> {
  const parked = deadLetterTopicOf({ name: topic, partitions: 1 }).name;
  const groupId = `dlq-replay.${topic}`;
  const admin = kafka.admin();
  await admin.connect();
  // Replay stops at what is parked now: the end offsets read before it starts.
  const [ends, committed] = await Promise.all([
    admin.fetchTopicOffsets(parked),
    admin.fetchOffsets({ groupId, topics: [parked] }),
  ]);
  await admin.disconnect();
  const committedOf = new Map(
    committed[0].partitions.map((partition) => [partition.partition, Number(partition.offset)]),
  );
  // Per partition, the end offset still to reach; -1 means the group never committed there.
  const remaining = new Map<number, number>();
  for (const { partition, low, high } of ends) {
    const start = Math.max(Number(low), committedOf.get(partition) ?? -1);
    if (Number(high) > start) remaining.set(partition, Number(high));
  }
  if (remaining.size === 0) return 0;

  const producer = kafka.producer({ idempotent: true, createPartitioner: Partitioners.DefaultPartitioner });
  const consumer = kafka.consumer({ groupId });
  await Promise.all([producer.connect(), consumer.connect()]);
  let replayed = 0;
  try {
    await consumer.subscribe({ topic: parked, fromBeginning: true });
    await new Promise<void>((done, failed) => {
      // A consumer that stops for good (refused the group or the topic) would leave replay waiting.
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (!payload.restart) failed(payload.error);
      });
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const end = remaining.get(partition);
            if (end === undefined || Number(message.offset) >= end) return;
            const headers: IHeaders = Object.fromEntries(
              Object.entries(message.headers ?? {}).filter(([name]) => !dlqHeaders.has(name)),
            );
            await producer.send({ topic, acks: -1, messages: [{ key: message.key, value: message.value, headers }] });
            await consumer.commitOffsets([{ topic: parked, partition, offset: String(Number(message.offset) + 1) }]);
            replayed += 1;
            if (Number(message.offset) + 1 >= end) remaining.delete(partition);
            if (remaining.size === 0) done();
          },
        })
        .catch(failed);
    });
  } finally {
    await Promise.all([consumer.disconnect(), producer.disconnect()]);
  }
  return replayed;
}
