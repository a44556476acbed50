import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { startProducerSpan, tracingEnabled } from '@payments/platform-tracing';
import { Kafka, Message, Partitioners, Producer } from 'kafkajs';

import { KAFKA_CLIENT } from './kafka-client';

interface Pending {
  topic: string;
  message: Message;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const maxBatch = 1000;

/**
 * The app's one Kafka producer. Every send is acknowledged by all in-sync replicas (acks=all)
 * before its promise resolves, and sends are batched: while one request is in flight, the next
 * gathers whatever arrives meanwhile, for any topic. At low load a message goes at once; under
 * load the broker sees a few large requests instead of one per message.
 */
@Injectable()
export class KafkaProducer implements OnApplicationShutdown {
  private producer?: Promise<Producer>;
  private queue: Pending[] = [];
  private flushing = false;

  constructor(@Inject(KAFKA_CLIENT) private readonly kafka: Kafka) {}

  send(topic: string, message: Message): Promise<void> {
    if (!tracingEnabled()) return this.enqueue(topic, message);
    // The trace context travels in the message's headers: a copy, never the caller's object.
    const headers = { ...message.headers };
    const endSpan = startProducerSpan('send', topic, headers);
    const sent = this.enqueue(topic, { ...message, headers });
    sent.then(() => endSpan(), endSpan);
    return sent;
  }

  async onApplicationShutdown(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    await (await producer?.catch(() => undefined))?.disconnect();
  }

  private enqueue(topic: string, message: Message): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ topic, message, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, maxBatch);
      try {
        const producer = await this.connected();
        await producer.sendBatch({ acks: -1, topicMessages: byTopic(batch) });
        for (const pending of batch) pending.resolve();
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.flushing = false;
  }

  private connected(): Promise<Producer> {
    this.producer ??= (async () => {
      const producer = this.kafka.producer({
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
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

function byTopic(batch: Pending[]) {
  const topics = new Map<string, Message[]>();
  for (const { topic, message } of batch) {
    const messages = topics.get(topic) ?? [];
    messages.push(message);
    topics.set(topic, messages);
  }
  return [...topics].map(([topic, messages]) => ({ topic, messages }));
}
