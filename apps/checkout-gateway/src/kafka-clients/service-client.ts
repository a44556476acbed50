import { Logger } from '@nestjs/common';
import { TopicSpec } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';
import { CommandClient, CommandTimeoutError } from '@payments/platform-kafka';

/**
 * Kafka request/reply to a backing service. A reply that carries an error becomes that error;
 * no reply in time becomes 503, and the caller may retry: every command that creates something
 * or moves money is idempotent.
 */
export abstract class ServiceClient<Command extends { type: string }> {
  private readonly logger = new Logger(this.constructor.name);

  protected constructor(
    private readonly client: CommandClient,
    private readonly requests: TopicSpec,
    private readonly timeoutMs: number,
    private readonly unavailableMessage: string,
    private readonly unavailableCode = 'SERVICE_UNAVAILABLE',
  ) {}

  async send<T>(command: Command): Promise<T> {
    let reply;
    try {
      reply = await this.client.request<T>(this.requests, command, this.timeoutMs);
    } catch (error) {
      if (!(error instanceof CommandTimeoutError))
        this.logger.error({ err: error, command: command.type }, 'request failed');
      throw new DomainError(this.unavailableCode, this.unavailableMessage, 503);
    }
    if (!reply.ok) throw new DomainError(reply.error.code, reply.error.message, reply.error.status);
    return reply.data;
  }
}
