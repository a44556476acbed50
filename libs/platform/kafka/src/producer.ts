import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { BatchedWrites } from '@payments/platform-async';
import { PlatformEnv } from '@payments/platform-config';
import { startProducerSpan, tracingEnabled } from '@payments/platform-tracing';
import { Kafka, Message, Producer } from 'kafkajs';

import { KAFKA_CLIENT } from './kafka-client';
import { StickyKeylessPartitioner } from './sticky-partitioner';

interface Outgoing {
  topic: string;
  message: Message;
}

const maxBatch = 1000;

/**
 * The app's one Kafka producer. Every send is acknowledged by all in-sync replicas (acks=all)
 * before its promise resolves, and sends are batched: a message waits `KAFKA_PRODUCER_LINGER_MS`
 * for company, and while one request is in flight the next gathers whatever arrives meanwhile,
 * for any topic. Under load the broker sees a few large requests instead of one per message.
 */
@Injectable()
export class KafkaProducer implements OnApplicationShutdown {
  private producer?: Promise<Producer>;
  private readonly sends: BatchedWrites<Outgoing>;

  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: Kafka,
    env: PlatformEnv,
  ) {
    this.sends = new BatchedWrites<Outgoing>(
      async (batch) => (await this.connected()).sendBatch({ acks: -1, topicMessages: byTopic(batch) }),
      maxBatch,
      env.KAFKA_PRODUCER_LINGER_MS,
    );
  }

  send(topic: string, message: Message): Promise<void> {
    if (!tracingEnabled()) return this.sends.add({ topic, message });
    // The trace context travels in the message's headers: a copy, never the caller's object.
    const headers = { ...message.headers };
    const endSpan = startProducerSpan('send', topic, headers);
    const sent = this.sends.add({ topic, message: { ...message, headers } });
    sent.then(() => endSpan(), endSpan);
    return sent;
  }

  /** Lets the sends in flight finish, then disconnects. */
  async onApplicationShutdown(): Promise<void> {
    await this.sends.drained();
    const producer = this.producer;
    this.producer = undefined;
    await (await producer?.catch(() => undefined))?.disconnect();
  }

  private connected(): Promise<Producer> {
    this.producer ??= (async () => {
      const producer = this.kafka.producer({
        allowAutoTopicCreation: false,
        createPartitioner: StickyKeylessPartitioner,
      });
      await producer.connect();
      return producer;
    })().catch((error: unknown) => {
      this.producer = undefined;
      throw error;
    });
    return this.producer;
  }
}

function byTopic(batch: Outgoing[]) {
  const topics = new Map<string, Message[]>();
  for (const { topic, message } of batch) {
    const messages = topics.get(topic) ?? [];
    messages.push(message);
    topics.set(topic, messages);
  }
  return [...topics].map(([topic, messages]) => ({ topic, messages }));
}
