import { Logger } from '@nestjs/common';
import type { Consumer } from 'kafkajs';

/** kafkajs's names for "no broker answered": the cluster is away, nothing is wrong with the consumer. */
const clusterAwayErrors = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
]);

/** Whether `error`, or an error it wraps, says only that no broker could be reached. */
export function isClusterAway(error: unknown): boolean {
  for (let link = error; link instanceof Error; link = link.cause) {
    if (clusterAwayErrors.has(link.name)) return true;
  }
  return false;
}

/**
 * Brokers answered, but none named the group's coordinator: they are still loading the groups
 * after an outage, or every one refused the lookup (a group the app's principal is not granted),
 * which kafkajs reports the same way.
 */
function isCoordinatorMissing(error: unknown): boolean {
  return error instanceof Error && error.name === 'KafkaJSGroupCoordinatorNotFound';
}

/** Between starts of a consumer kafkajs gave up on while the cluster is away. */
export const consumerRestartDelayMs = 5000;

/** How long brokers may go on naming no coordinator before it counts as a refusal, not a recovery. */
export const coordinatorMissingLimitMs = 120_000;

export interface ConsumerCrashOptions {
  logger: Logger;
  /** True once the app is shutting down: a crash then is the consumer being stopped. */
  stopping: () => boolean;
}

/**
 * What happens when kafkajs gives a consumer up. After a failure it counts as retriable it
 * starts the consumer again itself; after any other it disconnects it for good. When that
 * failure was only the cluster being away (every broker down), `start` (connect and run) is
 * called again every few seconds until the cluster answers: the process stays up and serves
 * what needs no Kafka. Brokers that answer but name no group coordinator get the same for
 * `coordinatorMissingLimitMs` (they may still be loading the groups); past that it is a refusal.
 * Any other failure (credentials or a group refused, a bug) stops the process, so the
 * orchestrator restarts it and the failure shows, rather than leave a process that looks
 * healthy and consumes nothing.
 */
export function recoverFromCrashes(
  consumer: Consumer,
  start: () => Promise<void>,
  { logger, stopping }: ConsumerCrashOptions,
): void {
  const startLater = () => {
    const timer = setTimeout(() => {
      if (stopping()) return;
      start().catch((error: unknown) => {
        logger.warn({ err: error }, 'Kafka cluster still away: the consumer starts again shortly');
        startLater();
      });
    }, consumerRestartDelayMs);
    timer.unref();
  };
  let coordinatorMissingSince: number | undefined;
  consumer.on(consumer.events.GROUP_JOIN, () => (coordinatorMissingSince = undefined));
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart || stopping()) return;
    if (isClusterAway(payload.error)) {
      logger.warn({ err: payload.error }, 'Kafka cluster away: the consumer starts again once it answers');
      startLater();
      return;
    }
    if (isCoordinatorMissing(payload.error)) {
      coordinatorMissingSince ??= Date.now();
      if (Date.now() - coordinatorMissingSince < coordinatorMissingLimitMs) {
        logger.warn({ err: payload.error }, 'Kafka cluster names no group coordinator yet: the consumer starts again');
        startLater();
        return;
      }
    }
    logger.error({ err: payload.error }, 'Kafka consumer crashed and will not restart: stopping');
    process.kill(process.pid, 'SIGTERM');
  });
}
