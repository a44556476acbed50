import { Logger } from '@nestjs/common';
import { CommandReply } from '@payments/contracts';
import { DomainError } from './domain-error';

/**
 * Runs a Kafka request/reply command and answers with its result. Domain errors travel back
 * as data, so the gateway answers them with the right status; anything else is logged here
 * and reported as an internal error without details.
 */
export async function commandReply(logger: Logger, command: string, work: () => Promise<unknown>): Promise<CommandReply> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, error: { code: error.code, message: error.message, status: error.status } };
    logger.error({ err: error, command }, 'command failed');
    return { ok: false, error: { code: 'INTERNAL_ERROR', message: 'The request could not be processed', status: 500 } };
  }
}
