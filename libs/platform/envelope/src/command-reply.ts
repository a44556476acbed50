import { Logger } from '@nestjs/common';
import { CommandError, CommandReply } from '@payments/contracts';

import { DomainError, DomainErrorCode, ValidationFailedError } from './domain-error';
import { isTransient } from './transient';

/** A command that failed because the database or broker was briefly away: the caller may retry it as it was. */
export const unavailableReply: CommandReply = {
  ok: false,
  error: {
    code: 'SERVICE_UNAVAILABLE',
    message: 'A dependency is briefly unavailable; retrying the same request is safe',
    status: 503,
  },
};

/** A command that failed for a reason the caller cannot act on; the details are in this service's log. */
export const internalErrorReply: CommandReply = {
  ok: false,
  error: { code: 'INTERNAL_ERROR', message: 'The request could not be processed', status: 500 },
};

/**
 * Runs a Kafka request/reply command and answers with its result. Domain errors travel back
 * as data, so the gateway answers them with the right status. A database or broker that is
 * briefly away is a 503: the command's transaction did not commit, and commands that move money
 * or create resources are keyed, so a retry answers the first outcome even if the connection
 * broke during the commit. Anything else is logged here and reported as an internal error
 * without details.
 */
export async function commandReply(
  logger: Logger,
  command: string,
  work: () => Promise<unknown>,
): Promise<CommandReply> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    if (error instanceof ValidationFailedError) {
      return {
        ok: false,
        error: { code: error.code, message: error.message, status: error.status, errors: error.errors },
      };
    }
    if (error instanceof DomainError) {
      return { ok: false, error: { code: error.code, message: error.message, status: error.status } };
    }
    if (isTransient(error)) {
      logger.warn({ err: error, command }, 'command failed on an unavailable dependency');
      return unavailableReply;
    }
    logger.error({ err: error, command }, 'command failed');
    return internalErrorReply;
  }
}

/**
 * The error a service's reply reports, to answer as this service's own: a VALIDATION_FAILED
 * with the fields it named. One without them can only come from a service of an earlier
 * release during a rollout; it is answered naming the request as a whole rather than without
 * `data.errors`.
 */
export function errorFromReply(error: CommandError): DomainError {
  if (error.code === 'VALIDATION_FAILED') {
    const errors = error.errors?.length ? error.errors : [{ field: 'request', messages: [error.message] }];
    return new ValidationFailedError(errors, error.message);
  }
  // A code of ours, sent as text: the contract crosses a process boundary, not the type.
  return new DomainError(error.code as DomainErrorCode, error.message, error.status);
}
