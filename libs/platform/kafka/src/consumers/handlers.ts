import { SetMetadata } from '@nestjs/common';
import { TopicSpec } from '@payments/contracts';

/**
 * How a topic's traffic is consumed. Each class has its own consumer group and fetch loop, so
 * a backlog in one never delays another: `commands` are requests someone is waiting for,
 * `events` are money and lifecycle events, `bulk` are high-volume streams (POS transactions,
 * their outcomes, partner events).
 */
export type TrafficClass = 'commands' | 'events' | 'bulk';

export interface HandlerSpec {
  topic: TopicSpec;
  trafficClass: TrafficClass;
  /**
   * `command`: request/reply, the handler's result is the reply. `event`: one message at a
   * time, in order per partition. `events`: a partition's batch at once, in order.
   */
  kind: 'command' | 'event' | 'events';
}

export const KAFKA_HANDLER = 'payments:kafka-handler';

/** The method handles each event of `topic` (its parsed envelope), in order within a partition. */
export function EventHandler(
  topic: TopicSpec,
  trafficClass: Exclude<TrafficClass, 'commands'> = 'events',
): MethodDecorator {
  return SetMetadata<string, HandlerSpec>(KAFKA_HANDLER, { topic, trafficClass, kind: 'event' });
}

/**
 * The method applies a partition's batch of `topic` at once (the parsed envelopes, in order, their
 * contexts, and its BatchProgress), for streams where one transaction per message would cost more
 * than the work.
 * A batch that fails for its own reasons is retried one message at a time, so one bad message
 * is parked alone.
 */
export function EventBatchHandler(
  topic: TopicSpec,
  trafficClass: Exclude<TrafficClass, 'commands'> = 'events',
): MethodDecorator {
  return SetMetadata<string, HandlerSpec>(KAFKA_HANDLER, { topic, trafficClass, kind: 'events' });
}

/**
 * The method answers each request of `topic`: what it returns is sent back to the requester as
 * the reply's data, and a DomainError it throws as the error's code, message and status; an
 * unavailable database or broker is answered 503, anything else 500 (commandReply).
 */
export function CommandHandler(topic: TopicSpec): MethodDecorator {
  return SetMetadata<string, HandlerSpec>(KAFKA_HANDLER, { topic, trafficClass: 'commands', kind: 'command' });
}

/**
 * Given to a batch handler with its batch, for one that works through it in parts (work that
 * waits on another system): between parts it calls `heartbeat`, so that the group keeps it as a
 * member however long the batch takes, and, on a bulk stream, `giveWay` with the time the part
 * took, which rests as the stream's yield says while commands are about (BulkYield). A handler
 * that gives way itself is not made to rest again after its batch. A handler given one message
 * at a time (after its batch failed) gets none.
 */
export interface BatchProgress {
  heartbeat(): Promise<void>;
  /** True while the process sends or answers commands: work one part at a time then. */
  commandsAbout(): boolean;
  giveWay(spentMs: number): Promise<void>;
}

/** Where a message came from, for handlers that need more than its value. */
export interface MessageContext {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  headers: Record<string, string>;
}

/** Headers a request carries so its reply finds the instance waiting for it. */
export const replyHeaders = {
  topic: 'reply-topic',
  partition: 'reply-partition',
  correlationId: 'correlation-id',
  /**
   * When the requester stops waiting (epoch milliseconds): it has answered "unavailable, retry"
   * by then, so a request still unhandled at its deadline is dropped, never acted on late.
   */
  deadline: 'reply-deadline',
} as const;
