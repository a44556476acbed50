import { randomBytes, randomInt } from 'node:crypto';

import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { CommandReply, Topics, TopicSpec } from '@payments/contracts';
import { requestContext, requestIdHeader } from '@payments/platform-logging';
import { AssignerProtocol, Consumer, ConsumerRunConfig, PartitionAssigner } from 'kafkajs';

import { BulkYield } from '../consumers/bulk-yield';
import { recoverFromCrashes } from '../consumers/consumer-crashes';
import { ConsumerFactory } from '../consumers/consumer-factory';
import { replyHeaders } from '../consumers/handlers';
import { KafkaProducer } from '../producer';

interface Waiting {
  resolve: (reply: CommandReply) => void;
  timer: NodeJS.Timeout;
}

/** No answer within the caller's time limit; the command may still complete, so it must be idempotent. */
export class CommandTimeoutError extends Error {
  constructor(topic: string) {
    super(`no reply on ${topic} in time`);
    this.name = 'CommandTimeoutError';
  }
}

/**
 * Assigns the one member of a group exactly one partition of the replies topic: each instance
 * has a group of its own, so instances never take each other's partitions, and any number of
 * them can run (several may share a partition; each keeps only the replies it is waiting for).
 */
function onePartition(topic: string, partition: number): PartitionAssigner {
  return () => ({
    name: 'OnePartitionAssigner',
    version: 0,
    protocol: ({ topics }) => ({
      name: 'OnePartitionAssigner',
      metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }),
    }),
    assign: async ({ members }) =>
      members.map(({ memberId }, index) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 0,
          assignment: index === 0 ? { [topic]: [partition] } : {},
          userData: Buffer.alloc(0),
        }),
      })),
  });
}

/**
 * Kafka request/reply for this instance. A request carries the topic and partition its reply
 * must go to and a correlation id; one consumer reads this instance's reply partition and hands
 * each reply to its waiting caller. Requests and replies travel in batches, so a busy instance
 * pays a few produce and fetch requests for many commands.
 */
@Injectable()
export class CommandClient implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CommandClient.name);
  private readonly replies = Topics.commandReplies;
  private readonly partition = randomInt(Topics.commandReplies.partitions);
  private readonly instance = randomBytes(8).toString('hex');
  private readonly waiting = new Map<string, Waiting>();
  private consumer?: Consumer;
  private stopping = false;
  private sequence = 0;

  constructor(
    private readonly consumers: ConsumerFactory,
    private readonly producer: KafkaProducer,
    private readonly bulkYield: BulkYield,
  ) {}

  /**
   * Joins the reply partition and sees a message of its own arrive there before any request
   * goes out. Without the platform's topics the app starts all the same (not ready), and the
   * reply consumer joins once they are there.
   */
  async onModuleInit(): Promise<void> {
    const joined = this.joinReplies();
    if (this.consumers.topicsPresent) await joined;
    else joined.catch((error: Error) => this.logger.error(`reply consumer did not start: ${error.message}`));
  }

  private async joinReplies(): Promise<void> {
    const consumer = await this.consumers.create(`replies.${this.instance}`, {
      partitionAssigners: [onePartition(this.replies.name, this.partition)],
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topics: [this.replies.name], fromBeginning: false });
    const ready = this.expect(`${this.instance}.ready`, 60_000);
    const config: ConsumerRunConfig = {
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          const correlationId = message.headers?.[replyHeaders.correlationId]?.toString();
          const waiting = correlationId ? this.waiting.get(correlationId) : undefined;
          if (!waiting || !correlationId) continue;
          this.waiting.delete(correlationId);
          clearTimeout(waiting.timer);
          waiting.resolve(JSON.parse(message.value?.toString('utf8') ?? 'null') as CommandReply);
        }
      },
    };
    // Without replies every command would time out: this consumer is kept going as the handlers' are.
    recoverFromCrashes(consumer, () => consumer.connect().then(() => consumer.run(config)), {
      logger: this.logger,
      stopping: () => this.stopping,
    });
    await consumer.run(config);
    // Until the consumer has found its position, a reply could be missed: wait for a marker to come back.
    const marker = setInterval(() => void this.sendMarker(), 1000);
    await this.sendMarker();
    try {
      await ready;
    } finally {
      clearInterval(marker);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.consumer?.disconnect();
  }

  /** Sends `command` to `topic` and waits up to `timeoutMs` for its reply. */
  async request<T>(topic: TopicSpec, command: unknown, timeoutMs: number): Promise<CommandReply<T>> {
    this.bulkYield.commandSeen();
    const correlationId = `${this.instance}.${(this.sequence += 1)}`;
    const deadline = Date.now() + timeoutMs;
    const reply = this.expect(correlationId, timeoutMs);
    const requestId = requestContext.getStore()?.requestId;
    await this.producer
      .send(topic.name, {
        value: JSON.stringify(command),
        headers: {
          [replyHeaders.topic]: this.replies.name,
          [replyHeaders.partition]: String(this.partition),
          [replyHeaders.correlationId]: correlationId,
          [replyHeaders.deadline]: String(deadline),
          // The caller's request id, so the serving app's log lines carry it too.
          ...(requestId ? { [requestIdHeader]: requestId } : {}),
        },
      })
      .catch((error: unknown) => {
        this.forget(correlationId);
        throw error;
      });
    return (await reply) as CommandReply<T>;
  }

  private expect(correlationId: string, timeoutMs: number): Promise<CommandReply> {
    const reply = new Promise<CommandReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(correlationId);
        reject(new CommandTimeoutError(this.replies.name));
      }, timeoutMs);
      this.waiting.set(correlationId, { resolve, timer });
    });
    // The caller awaits the reply only after its send: while the broker is down the send can
    // outlast the wait, and a rejection nobody awaits yet would stop the process.
    reply.catch(() => undefined);
    return reply;
  }

  private forget(correlationId: string): void {
    clearTimeout(this.waiting.get(correlationId)?.timer);
    this.waiting.delete(correlationId);
  }

  private async sendMarker(): Promise<void> {
    const correlationId = `${this.instance}.ready`;
    if (!this.waiting.has(correlationId)) return;
    await this.producer
      .send(this.replies.name, {
        partition: this.partition,
        value: 'null',
        headers: { [replyHeaders.correlationId]: correlationId },
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not reach the replies topic yet'));
  }
}
