import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { CommandReply, deadLetterTopicOf } from '@payments/contracts';
import { PlatformEnv } from '@payments/platform-config';
import { commandReply, internalErrorReply } from '@payments/platform-envelope';
import { requestContext, requestIdHeader } from '@payments/platform-logging';
import { traceBatchProcessing, traceProcessing } from '@payments/platform-tracing';
import { Consumer, ConsumerRunConfig, EachBatchPayload, KafkaMessage } from 'kafkajs';

import { CommandReplies, handlingRequest } from '../commands/command-replies';
import { untilRequesterDeadline } from '../commands/requester-deadline';
import { KafkaProducer } from '../producer';
import { BulkYield } from './bulk-yield';
import { recoverFromCrashes } from './consumer-crashes';
import { ConsumerFactory } from './consumer-factory';
import { ConsumerMetrics } from './consumer-metrics';
import { isTransient, PoisonMessageError } from './failures';
import { BatchProgress, HandlerSpec, KAFKA_HANDLER, MessageContext, replyHeaders, TrafficClass } from './handlers';
import { checkContract } from './message-contracts';
import { PeriodicCommits } from './periodic-commits';

/** A discovered handler; a batch handler (`events`) takes arrays of values and contexts. */
type Handler = HandlerSpec & {
  name: string;
  invoke: (value: unknown, context: unknown, progress?: BatchProgress) => Promise<unknown>;
};

/** Quick retries of a message that failed for a reason of its own, before it is parked. */
const attemptsBeforeParking = 4;
/** Requests of one batch worked on at once; replies are batched by the producer. */
const commandConcurrency = 64;
/** The longest wait between attempts to join the groups (startUntilJoined). */
const joinRetryCapMs = 30_000;

/**
 * Runs the app's Kafka handlers (@EventHandler, @CommandHandler): one consumer group per
 * traffic class, batches fetched with long polls and offsets committed periodically (every
 * handler is idempotent). A failure about the infrastructure (database or broker unreachable)
 * pauses just that partition and retries it with backoff until it succeeds; a message that can
 * never succeed is parked on `<topic>.dlq` with the reason; anything else is retried a few
 * times and then parked.
 */
@Injectable()
export class KafkaConsumers implements BeforeApplicationShutdown {
  private readonly logger = new Logger(KafkaConsumers.name);
  private readonly consumers: Consumer[] = [];
  private readonly commits: PeriodicCommits[] = [];
  private readonly failures = new Map<string, number>();
  private readonly resumeTimers = new Set<NodeJS.Timeout>();
  private stopping = false;
  /** Counts discarded starts: a consumer of an earlier, failed start is never restarted. */
  private generation = 0;
  private failedJoin: string | null = null;
  private readonly replies: CommandReplies;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly consumerFactory: ConsumerFactory,
    private readonly producer: KafkaProducer,
    private readonly metrics: ConsumerMetrics,
    private readonly env: PlatformEnv,
    private readonly bulkYield: BulkYield,
  ) {
    this.replies = new CommandReplies(producer);
  }

  /** Joins a consumer group per traffic class that has handlers; resolves once each has joined. */
  async start(): Promise<void> {
    if (this.stopping) return; // shutting down before the consumers were due to join
    const generation = this.generation;
    const handlers = this.handlers();
    const classes = new Map<TrafficClass, Handler[]>();
    for (const handler of handlers) {
      classes.set(handler.trafficClass, [...(classes.get(handler.trafficClass) ?? []), handler]);
    }
    await Promise.all([...classes].map(([trafficClass, own]) => this.run(trafficClass, own, generation)));
    this.metrics.watch(
      this.consumers.length > 0
        ? [...classes].map(([trafficClass, own]) => ({
            groupId: this.groupId(trafficClass),
            topics: own.map((handler) => handler.topic),
          }))
        : [],
    );
  }

  /**
   * start(), again with backoff after each failure, until the groups are joined or the app
   * stops. Meanwhile `joinProblem` says why, and readiness reports it: a pod that consumes
   * nothing takes no traffic, and its rollout stalls where the failure shows.
   */
  async startUntilJoined(): Promise<void> {
    this.failedJoin = 'the consumers have not joined their groups yet';
    for (let attempt = 0; !this.stopping; attempt++) {
      try {
        await this.start();
        this.failedJoin = null;
        return;
      } catch (error) {
        if (this.stopping) return;
        this.failedJoin = `the consumers did not join their groups: ${(error as Error).message}`;
        const delayMs = Math.min(joinRetryCapMs, 1000 * 2 ** attempt);
        this.logger.error({ err: error }, `${this.failedJoin}; trying again in ${delayMs} ms`);
        await this.discardStarted();
        await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      }
    }
  }

  /** Why consumers that should be consuming are not, or null. */
  get joinProblem(): string | null {
    return this.failedJoin;
  }

  /** Disconnects what a failed start made, so the next start begins from nothing. */
  private async discardStarted(): Promise<void> {
    this.generation++;
    const [consumers, commits] = [this.consumers.splice(0), this.commits.splice(0)];
    await Promise.all(commits.map((periodic) => periodic.stop()));
    await Promise.all(consumers.map((consumer) => consumer.disconnect().catch(() => undefined)));
  }

  private groupId(trafficClass: TrafficClass): string {
    return this.consumerFactory.groupId(trafficClass);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const timer of this.resumeTimers) clearTimeout(timer);
    await Promise.all(this.commits.map((commits) => commits.stop()));
    await Promise.all(this.consumers.map((consumer) => consumer.disconnect()));
    this.metrics.stop();
  }

  private async run(trafficClass: TrafficClass, handlers: Handler[], generation: number): Promise<void> {
    const byTopic = new Map(handlers.map((handler) => [handler.topic.name, handler]));
    // A start discarded (or the app stopping) while this one awaited: it must not run on unseen.
    const discarded = () => this.stopping || generation !== this.generation;
    const consumer = await this.consumerFactory.create(trafficClass);
    if (discarded()) throw new Error('the start was given up before this consumer connected');
    const commits = new PeriodicCommits(consumer);
    this.consumers.push(consumer);
    this.commits.push(commits);
    await consumer.connect();
    await consumer.subscribe({ topics: [...byTopic.keys()], fromBeginning: true });
    if (discarded()) {
      await consumer.disconnect();
      throw new Error('the start was given up while this consumer connected');
    }
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    const config: ConsumerRunConfig = {
      eachBatchAutoResolve: false,
      // kafkajs would commit after every batch; PeriodicCommits commits once a second, from a
      // timer of its own: a commit that waits on a moving group coordinator never holds the
      // fetch loop, and so never the commands and events behind it.
      autoCommit: false,
      // Bulk streams get fewer partitions at once, leaving the process to latency-sensitive work.
      partitionsConsumedConcurrently: trafficClass === 'bulk' ? 2 : this.env.KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY,
      eachBatch: async (payload) => {
        commits.track(payload);
        const handler = byTopic.get(payload.batch.topic);
        if (!handler) return;
        if (handler.kind === 'command') await this.answerBatch(handler, payload);
        else if (
          handler.kind === 'events' &&
          payload.batch.messages.length > 1 &&
          (await this.applyAtOnce(handler, payload))
        ) {
          return;
        } else await this.applyBatch(handler, payload);
      },
    };
    recoverFromCrashes(consumer, () => consumer.connect().then(() => consumer.run(config)), {
      logger: this.logger,
      stopping: discarded,
    });
    await consumer.run(config);
    await joined;
    if (discarded()) return; // its commits were stopped with it
    commits.start();
  }

  /** Events in order: each is applied, parked, or (on an infrastructure failure) its partition paused for a retry. */
  private async applyBatch(
    handler: Handler,
    { batch, resolveOffset, heartbeat, pause, isRunning, isStale }: EachBatchPayload,
  ): Promise<void> {
    for (const message of batch.messages) {
      if (!isRunning() || isStale() || this.stopping) return;
      const context = contextOf(batch.topic, batch.partition, message);
      const key = `${batch.topic}:${batch.partition}:${message.offset}`;
      const started = performance.now();
      const outcome = await this.apply(handler, message, context);
      if (handler.trafficClass === 'bulk') await this.bulkYield.after(performance.now() - started);
      if (outcome === 'retry') {
        const attempts = (this.failures.get(key) ?? 0) + 1;
        this.failures.set(key, attempts);
        this.resumeLater(pause(), backoffMs(attempts));
        return;
      }
      this.failures.delete(key);
      resolveOffset(message.offset);
      this.metrics.applied(handler.topic.name, outcome);
      await heartbeat();
    }
  }

  /**
   * A whole batch in one call. True when it is done with (applied, or paused for an
   * infrastructure retry); false when it failed for its own reasons and should be retried one
   * message at a time, so that a bad message is parked alone.
   */
  private async applyAtOnce(
    handler: Handler,
    { batch, resolveOffset, pause, heartbeat }: EachBatchPayload,
  ): Promise<boolean> {
    const decoded: unknown[] = [];
    const contexts: MessageContext[] = [];
    for (const message of batch.messages) {
      try {
        decoded.push(decodeChecked(handler, message));
        contexts.push(contextOf(batch.topic, batch.partition, message));
      } catch {
        return false;
      }
    }
    const key = `${batch.topic}:${batch.partition}:${batch.firstOffset()}:batch`;
    const started = performance.now();
    let gaveWay = false;
    const progress: BatchProgress = {
      heartbeat,
      commandsAbout: () => handler.trafficClass === 'bulk' && this.bulkYield.commandsAbout(),
      giveWay: async (spentMs) => {
        if (handler.trafficClass !== 'bulk') return;
        gaveWay = true;
        await this.bulkYield.after(spentMs);
      },
    };
    try {
      await traceBatchProcessing(contexts, this.groupId(handler.trafficClass), () =>
        handler.invoke(decoded, contexts, progress),
      );
      if (handler.trafficClass === 'bulk' && !gaveWay) await this.bulkYield.after(performance.now() - started);
    } catch (error) {
      if (!isTransient(error)) return false;
      const attempts = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, attempts);
      this.logger.warn(
        { err: error, topic: batch.topic, partition: batch.partition },
        'infrastructure unavailable: partition paused, will retry',
      );
      this.resumeLater(pause(), backoffMs(attempts));
      return true;
    }
    this.failures.delete(key);
    resolveOffset(batch.lastOffset());
    for (let i = 0; i < decoded.length; i += 1) this.metrics.applied(handler.topic.name, 'applied');
    return true;
  }

  /** One event: 'applied', 'parked', or 'retry' (the message stays, to be fetched again). */
  private async apply(
    handler: Handler,
    message: KafkaMessage,
    context: MessageContext,
  ): Promise<'applied' | 'parked' | 'retry'> {
    const key = `${context.topic}:${context.partition}:${context.offset}`;
    try {
      const value = decodeChecked(handler, message);
      // A batch handler given one message at a time: the fallback after its batch failed.
      await this.inSpan(handler, context, () =>
        handler.kind === 'events' ? handler.invoke([value], [context]) : handler.invoke(value, context),
      );
      return 'applied';
    } catch (error) {
      if (error instanceof PoisonMessageError) return this.park(context, message, error);
      if (isTransient(error)) {
        this.logger.warn(
          { err: error, topic: context.topic, partition: context.partition, offset: context.offset },
          'infrastructure unavailable: partition paused, will retry',
        );
        return 'retry';
      }
      if ((this.failures.get(key) ?? 0) + 1 >= attemptsBeforeParking) return this.park(context, message, error);
      this.logger.warn({ err: error, topic: context.topic, offset: context.offset }, 'handler failed: retrying');
      return 'retry';
    }
  }

  /** Requests are independent: a batch is answered concurrently, each reply going to the instance that asked. */
  private async answerBatch(handler: Handler, { batch, resolveOffset }: EachBatchPayload): Promise<void> {
    this.bulkYield.commandSeen();
    let next = 0;
    const work = async () => {
      while (next < batch.messages.length && !this.stopping) {
        const message = batch.messages[next++];
        await this.answer(handler, message, contextOf(batch.topic, batch.partition, message));
      }
    };
    await Promise.all(Array.from({ length: Math.min(commandConcurrency, batch.messages.length) }, work));
    if (!this.stopping) resolveOffset(batch.lastOffset());
  }

  private async answer(handler: Handler, message: KafkaMessage, context: MessageContext): Promise<void> {
    const deadline = Number(context.headers[replyHeaders.deadline] ?? NaN);
    if (Date.now() >= deadline) {
      // The requester has answered 503 and the caller may have retried since: acting now could
      // book a transfer after its retry was refused. The retry, or the next one, does the work.
      this.metrics.applied(handler.topic.name, 'expired');
      this.logger.warn(
        { topic: context.topic, offset: context.offset },
        'request expired before it was handled: dropped',
      );
      return;
    }
    const { result: reply, forwarded } = await handlingRequest(context.headers, () =>
      untilRequesterDeadline(deadline, () => this.replyTo(handler, message, context)),
    );
    this.metrics.applied(handler.topic.name, 'applied');
    // The handler handed its answer on with a message whose receiver replies (an error stays ours).
    if (forwarded && reply.ok) return;
    await this.replies.send(context.headers, reply);
  }

  /** What the requester is told: the handler's result, or its failure as data (commandReply). */
  private async replyTo(handler: Handler, message: KafkaMessage, context: MessageContext): Promise<CommandReply> {
    let command: unknown;
    try {
      command = decodeChecked(handler, message);
    } catch (error) {
      // The requester is told at once; the request is kept on the DLQ for whoever fixes the sender.
      await this.park(context, message, error);
      return internalErrorReply;
    }
    const type = String((command as { type?: unknown }).type);
    return this.inSpan(handler, context, () => commandReply(this.logger, type, () => handler.invoke(command, context)));
  }

  private async park(context: MessageContext, message: KafkaMessage, error: unknown): Promise<'parked' | 'retry'> {
    const reason = error instanceof Error ? error.message : String(error);
    try {
      await this.producer.send(deadLetterTopicOf({ name: context.topic, partitions: 1 }).name, {
        key: message.key,
        value: message.value,
        headers: {
          ...context.headers,
          'dlq-reason': reason.slice(0, 500),
          'dlq-source-partition': String(context.partition),
          'dlq-source-offset': context.offset,
        },
      });
    } catch (sendError) {
      // Not parked, so not skipped: the message is tried again once the broker answers.
      this.logger.warn({ err: sendError, topic: context.topic }, 'could not park a message; retrying it');
      return 'retry';
    }
    this.logger.error(
      { err: error, topic: context.topic, partition: context.partition, offset: context.offset },
      `message parked on ${context.topic}.dlq`,
    );
    return 'parked';
  }

  /** Runs a message's handler with its request id in the log context and its trace continued. */
  private inSpan<T>(handler: Handler, context: MessageContext, work: () => Promise<T>): Promise<T> {
    return traceProcessing(context, this.groupId(handler.trafficClass), () =>
      this.env.LOG_REQUEST_CONTEXT ? inContext(context, work) : work(),
    );
  }

  private resumeLater(resume: () => void, delayMs: number): void {
    const timer = setTimeout(() => {
      this.resumeTimers.delete(timer);
      if (!this.stopping) resume();
    }, delayMs);
    this.resumeTimers.add(timer);
  }

  private handlers(): Handler[] {
    const wrappers = [...this.discovery.getControllers(), ...this.discovery.getProviders()];
    return wrappers.flatMap((wrapper) => {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') return [];
      const prototype = Object.getPrototypeOf(instance) as object;
      return this.scanner.getAllMethodNames(prototype).flatMap((method) => {
        const spec = this.reflector.get<HandlerSpec | undefined>(KAFKA_HANDLER, instance[method] as () => unknown);
        if (!spec) return [];
        const invoke = (value: unknown, context: unknown, progress?: BatchProgress) =>
          (instance[method] as Handler['invoke']).call(instance, value, context, progress);
        return [{ ...spec, name: `${wrapper.name}.${method}`, invoke }];
      });
    });
  }
}

/** Log lines written while handling a message carry the request id it came with, or its event id. */
function inContext<T>(context: MessageContext, work: () => Promise<T>): Promise<T> {
  const requestId =
    context.headers[requestIdHeader] ?? context.headers['correlation-id'] ?? context.headers['event-id'];
  return requestId ? requestContext.run({ requestId }, work) : work();
}

/** The message's value, checked against its contract; PoisonMessageError when unreadable or in breach. */
function decodeChecked(handler: Handler, message: KafkaMessage): unknown {
  const value = decode(message);
  checkContract(handler.topic.name, handler.kind, value);
  return value;
}

function decode(message: KafkaMessage): unknown {
  try {
    return JSON.parse(message.value?.toString('utf8') ?? 'null');
  } catch (error) {
    throw new PoisonMessageError('the message is not JSON', { cause: error });
  }
}

function contextOf(topic: string, partition: number, message: KafkaMessage): MessageContext {
  const headers = Object.fromEntries(
    Object.entries(message.headers ?? {}).map(([name, value]) => [
      name,
      Array.isArray(value) ? String(value[0]) : String(value),
    ]),
  );
  return { topic, partition, offset: message.offset, key: message.key?.toString('utf8') ?? null, headers };
}

/** 0.2 s, doubling, at most 30 s, with jitter so that recovering infrastructure is not hit in step. */
function backoffMs(attempts: number): number {
  return Math.round(Math.min(30_000, 200 * 2 ** Math.min(attempts - 1, 8)) * (0.8 + 0.4 * Math.random()));
}
