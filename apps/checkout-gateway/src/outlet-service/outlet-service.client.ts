import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { CommandReply, OutletCommand, Topics } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';
import { KafkaAdmin } from '@payments/platform-kafka';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { Env } from '../config/env';

export const OUTLET_SERVICE = Symbol('OUTLET_SERVICE');

/**
 * Kafka request/reply to outlet-service. A reply that carries an error becomes that error;
 * no reply in time becomes 503, and the caller may retry: money commands are idempotent on
 * their reference.
 */
@Injectable()
export class OutletServiceClient implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OutletServiceClient.name);

  constructor(
    @Inject(OUTLET_SERVICE) private readonly client: ClientKafka,
    private readonly kafkaAdmin: KafkaAdmin,
    private readonly env: Env,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.kafkaAdmin.topicsReady();
    this.client.subscribeToResponseOf(Topics.outletCommands.name);
    await this.client.connect();
    await this.replyPartitionsAssigned();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  async send<T>(command: OutletCommand): Promise<T> {
    let reply: CommandReply<T>;
    try {
      reply = await firstValueFrom(
        this.client.send<CommandReply<T>>(Topics.outletCommands.name, command).pipe(timeout(this.env.OUTLET_SERVICE_TIMEOUT_MS)),
      );
    } catch (error) {
      if (!(error instanceof TimeoutError)) this.logger.error({ err: error, command: command.type }, 'outlet-service request failed');
      throw new DomainError('SERVICE_UNAVAILABLE', 'The wallet service did not answer in time; retry the request', 503);
    }
    if (!reply.ok) throw new DomainError(reply.error.code, reply.error.message, reply.error.status);
    return reply.data;
  }

  /** Replies come back on the partitions this instance owns: requests wait until it owns some. */
  private async replyPartitionsAssigned(): Promise<void> {
    const replyTopic = Topics.outletCommandReplies.name;
    for (let attempt = 0; attempt < 300; attempt += 1) {
      if (this.client.getConsumerAssignments()[replyTopic] !== undefined) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no partition of ${replyTopic} was assigned within 30 s`);
  }
}
