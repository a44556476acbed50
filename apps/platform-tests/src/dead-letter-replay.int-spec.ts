import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

import { deadLetterTopicOf } from '@payments/contracts';
import { applyTopics, createKafkaClient, replayDeadLetters } from '@payments/platform-kafka';
import { eventually, KafkaCollector, testEnvironment, uniqueName } from '@payments/testing';
import { Partitioners } from 'kafkajs';

jest.setTimeout(90_000);

const brokers = testEnvironment().KAFKA_BROKERS!;

describe('replaying parked messages', () => {
  const kafka = createKafkaClient({ brokers: brokers.split(','), clientId: uniqueName('replay') });

  it('sends each parked message back to its topic once, without the parking headers', async () => {
    const topic = { name: uniqueName('replay.test'), partitions: 3 };
    const admin = kafka.admin();
    await admin.connect();
    await applyTopics(admin, [topic, deadLetterTopicOf(topic)]);
    await admin.disconnect();
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const park = (ids: string[]) =>
      producer.send({
        topic: deadLetterTopicOf(topic).name,
        acks: -1,
        messages: ids.map((id) => ({
          key: `key-${id}`,
          value: JSON.stringify({ eventId: id }),
          headers: { 'event-id': id, 'dlq-reason': 'tenant unknown', 'dlq-source-offset': '7' },
        })),
      });
    const collector = await new KafkaCollector(brokers, topic.name).start();
    try {
      await park(['e1', 'e2', 'e3']);
      expect(await replayDeadLetters(kafka, topic.name)).toBe(3);
      await eventually(() => (collector.messages.length >= 3 ? true : undefined));
      expect(collector.messages.map((message) => message.key).sort()).toEqual(['key-e1', 'key-e2', 'key-e3']);
      for (const message of collector.messages) {
        expect(message.headers).toEqual({ 'event-id': JSON.parse(message.value).eventId });
      }

      // A second run has nothing new to send; what is parked later goes on its own.
      expect(await replayDeadLetters(kafka, topic.name)).toBe(0);
      await park(['e4']);
      expect(await replayDeadLetters(kafka, topic.name)).toBe(1);
      await eventually(() => (collector.messages.length >= 4 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(collector.messages.map((message) => message.key).sort()).toEqual(['key-e1', 'key-e2', 'key-e3', 'key-e4']);
    } finally {
      await collector.stop();
      await producer.disconnect();
    }
  });

  it('names the topics it can replay when given another', () => {
    const run = spawnSync(
      process.execPath,
      ['-r', './tools/runtime/register-paths.cjs', 'tools/runtime/dlq-replay.cjs', 'partner.events.v1.dlq'],
      {
        cwd: resolve(__dirname, '../../..'),
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: npm run dlq:replay -- <topic>, one of: partner.events.v1,');
  });
});
