import { Logger } from '@nestjs/common';
import { TopicSpec } from '@payments/contracts';
import { DomainError, DomainErrorCode, errorFromReply } from '@payments/platform-envelope';
import { CommandClient, CommandTimeoutError } from '@payments/platform-kafka';

import { OnboardingUnfinishedError } from '../businesses/onboarding.errors';

/**
 * Kafka request/reply to a backing service. A command answers with what its contract's
 * `Results` say. A reply that carries an error becomes that error (a 422 with the fields the
 * service named); no reply in time becomes 503, and the caller may retry: every command that
 * creates something or moves money is idempotent.
 * A service that does not know the business answers INVALID_TENANT; the gateway only sends
 * commands for businesses it knows, so that means the onboarding has not reached the service
 * yet: a 503 to retry shortly, not a state the partner could fix or should report.
 */
export abstract class ServiceClient<
  Command extends { type: string },
  Results extends Record<Command['type'], unknown>,
> {
  private readonly logger = new Logger(this.constructor.name);

  protected constructor(
    private readonly client: CommandClient,
    private readonly requests: TopicSpec,
    private readonly timeoutMs: number,
    private readonly unavailableMessage: string,
    private readonly unavailableCode: DomainErrorCode = 'SERVICE_UNAVAILABLE',
  ) {}

  async send<Sent extends Command>(command: Sent): Promise<Results[Sent['type']]> {
    let reply;
    try {
      reply = await this.client.request<Results[Sent['type']]>(this.requests, command, this.timeoutMs);
    } catch (error) {
      if (!(error instanceof CommandTimeoutError)) {
        this.logger.error({ err: error, command: command.type }, 'request failed');
      }
      throw new DomainError(this.unavailableCode, this.unavailableMessage, 503);
    }
    if (!reply.ok) {
      if (reply.error.code === 'INVALID_TENANT') throw new OnboardingUnfinishedError();
      throw errorFromReply(reply.error);
    }
    return reply.data;
  }
}
