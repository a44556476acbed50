import { randomUUID } from 'node:crypto';

import type { Kafka } from 'kafkajs';

/**
 * Where events a run lost track of are in Kafka: for each event id, the partition and offset it
 * was written at and the offset a consumer group has committed there, or that the topic does not
 * hold it. A failed audit then says whether the producer or the consumer dropped it.
 */
export async function kafkaTrail(
  kafka: Kafka,
  topic: string,
  group: string,
  eventIds: string[],
): Promise<Map<string, string>> {
  const trail = new Map<string, string>();
  if (eventIds.length === 0) return trail;
  const wanted = new Set(eventIds);
  const admin = kafka.admin();
  const consumer = kafka.consumer({ groupId: `chaos-audit-${randomUUID()}` });
  try {
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic);
    const ends = new Map(offsets.map(({ partition, high }) => [partition, BigInt(high)] as const));
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    const committedAt = new Map(committed?.partitions.map(({ partition, offset }) => [partition, offset]) ?? []);
    // Only partitions holding messages: one whose log was emptied by retention has none to read.
    const unread = new Set(
      offsets.filter(({ low, high }) => BigInt(high) > BigInt(low)).map(({ partition }) => partition),
    );
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`could not read ${topic} to its end in 60 s`)), 60_000);
      const done = () => (clearTimeout(timer), resolve());
      if (unread.size === 0) return done();
      void consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            const eventId = (JSON.parse(message.value?.toString() ?? '{}') as { eventId?: string }).eventId;
            if (eventId && wanted.has(eventId)) {
              trail.set(
                eventId,
                `in ${topic} at partition ${partition} offset ${message.offset}; ${group} committed ${committedAt.get(partition) ?? 'nothing'} there`,
              );
            }
            if (BigInt(message.offset) + 1n >= ends.get(partition)!) unread.delete(partition);
            if (unread.size === 0) done();
          },
        })
        .catch(reject);
    });
    for (const eventId of eventIds) if (!trail.has(eventId)) trail.set(eventId, `not in ${topic}`);
  } catch (error) {
    for (const eventId of eventIds) trail.set(eventId, `Kafka not searched: ${(error as Error).message}`);
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
  return trail;
}
