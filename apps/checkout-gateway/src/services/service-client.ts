import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { CommandReply, TopicSpec } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';
import { KafkaAdmin } from '@payments/platform-kafka';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';

/**
 * Kafka request/reply to a backing service. A reply that carries an error becomes that error;
 * no reply in time becomes 503, and the caller may retry: money commands are idempotent on
 * their reference.
 */
export abstract class ServiceClient<Command extends { type: string }> implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(this.constructor.name);

  protected constructor(
    private readonly client: ClientKafka,
    private readonly kafkaAdmin: KafkaAdmin,
    private readonly requests: TopicSpec,
    private readonly replies: TopicSpec,
    private readonly timeoutMs: number,
    private readonly unavailableMessage: string,
    private readonly unavailableCode = 'SERVICE_UNAVAILABLE',
  ) {}

  async onModuleInit(): Promise<void> {
    await this.kafkaAdmin.topicsReady();
    this.client.subscribeToResponseOf(this.requests.name);
    await this.client.connect();
    await this.replyPartitionsAssigned();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  async send<T>(command: Command): Promise<T> {
    let reply: CommandReply<T>;
    try {
      reply = await firstValueFrom(this.client.send<CommandReply<T>>(this.requests.name, command).pipe(timeout(this.timeoutMs)));
    } catch (error) {
      if (!(error instanceof TimeoutError)) this.logger.error({ err: error, command: command.type }, 'request failed');
      throw new DomainError(this.unavailableCode, this.unavailableMessage, 503);
    }
    if (!reply.ok) throw new DomainError(reply.error.code, reply.error.message, reply.error.status);
    return reply.data;
  }

  /** Replies come back on the partitions this instance owns: requests wait until it owns some. */
  private async replyPartitionsAssigned(): Promise<void> {
    for (let attempt = 0; attempt < 300; attempt += 1) {
      if (this.client.getConsumerAssignments()[this.replies.name] !== undefined) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no partition of ${this.replies.name} was assigned within 30 s`);
  }
}
