import { Logger } from '@nestjs/common';
import { Kafka, LogEntry, logLevel } from 'kafkajs';

export const KAFKA_CLIENT = Symbol('KAFKA_CLIENT');

/**
 * What every consumer of the platform shares: topics exist before anyone reads them, a dead
 * member is noticed within 15 s, and fetches are long polls (one returns as soon as data
 * arrives, so an idle consumer asks about once a second).
 */
export const consumerSettings = {
  allowAutoTopicCreation: false,
  sessionTimeout: 15_000,
  heartbeatInterval: 3000,
  maxWaitTimeInMs: 1000,
} as const;

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
}

const levels: Record<number, 'error' | 'warn' | 'log' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'log',
  [logLevel.DEBUG]: 'debug',
};

/** A kafkajs client whose own logging goes through the app's logger at WARN and above. */
export function createKafkaClient({ brokers, clientId }: KafkaClientOptions): Kafka {
  const logger = new Logger('kafkajs');
  return new Kafka({
    clientId,
    brokers,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { initialRetryTime: 200, retries: 5, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, namespace, log }: LogEntry) => {
        const { message, ...rest } = log;
        logger[levels[level] ?? 'log']({ namespace, ...rest }, message);
      },
  });
}
