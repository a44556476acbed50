import { createKafkaClient } from '@payments/platform-kafka';
import { Consumer } from 'kafkajs';

import { uniqueName } from './test-env';

export interface CollectedMessage {
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

/** Reads a topic from the beginning into memory, under a consumer group no one else uses. */
export class KafkaCollector {
  readonly messages: CollectedMessage[] = [];
  private consumer?: Consumer;

  constructor(
    private readonly brokers: string,
    private readonly topic: string,
  ) {}

  async start(): Promise<this> {
    const kafka = createKafkaClient({ brokers: this.brokers.split(','), clientId: uniqueName('collector') });
    this.consumer = kafka.consumer({ groupId: uniqueName('collector'), retry: { retries: 20 } });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        this.messages.push({
          key: message.key?.toString() ?? null,
          value: message.value?.toString() ?? '',
          headers: Object.fromEntries(
            Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
          ),
        });
      },
    });
    return this;
  }

  /** Distinct event ids seen so far (redeliveries counted once). */
  eventIds(): Set<string> {
    return new Set(this.messages.map((message) => (JSON.parse(message.value) as { eventId: string }).eventId));
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
