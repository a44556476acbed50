import { applyTopics, createKafkaClient } from '@payments/platform-kafka';
import { testEnvironment, uniqueName } from '@payments/testing';
import { Partitioners } from 'kafkajs';

import { kafkaTrail } from './kafka-trail';

const brokers = testEnvironment().KAFKA_BROKERS!;

describe("the chaos audit's Kafka trail of a lost event", () => {
  const kafka = createKafkaClient({ brokers: brokers.split(','), clientId: uniqueName('trail') });

  it('names where each event was written and what the group committed there, and the events Kafka never got', async () => {
    const topic = uniqueName('trail');
    const group = uniqueName('trail-group');
    const admin = kafka.admin();
    // Idempotent: a send retried on a busy machine (the topic is seconds old) writes each event once,
    // so the offsets asserted below are the only ones.
    const producer = kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await admin.connect();
    await producer.connect();
    try {
      await applyTopics(admin, [{ name: topic, partitions: 2 }]);
      const written = ['e-1', 'e-2', 'e-3'];
      await producer.send({
        topic,
        messages: written.map((eventId, i) => ({ partition: i % 2, value: JSON.stringify({ eventId }) })),
      });
      await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '1' }] });

      const trail = await kafkaTrail(kafka, topic, group, ['e-3', 'e-2', 'e-missing']);

      expect(Object.fromEntries(trail)).toEqual({
        'e-3': `in ${topic} at partition 0 offset 1; ${group} committed 1 there`,
        'e-2': `in ${topic} at partition 1 offset 0; ${group} committed -1 there`,
        'e-missing': `not in ${topic}`,
      });
    } finally {
      await producer.disconnect();
      await admin.disconnect();
    }
  });
});
