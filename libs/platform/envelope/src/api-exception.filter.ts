import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, throwError } from 'rxjs';

import { DomainError } from './domain-error';
import { toErrorEnvelope } from './to-error-envelope';

/** The one place an HTTP error becomes a response. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(error: unknown, host: ArgumentsHost): void | Observable<never> {
    // Kafka handlers: hand the error back to the transport, which leaves the offset uncommitted.
    if (host.getType() !== 'http') return throwError(() => error);
    const { envelope, unexpected, transient } = toErrorEnvelope(error);
    const http = host.switchToHttp();
    // Named here, not left to the request context, which an app may run without (LOG_REQUEST_CONTEXT).
    const { id: requestId } = http.getRequest<FastifyRequest>();
    if (unexpected) {
      this.logger.error({ err: unexpected, errorId: envelope.data.errorId, requestId }, 'unexpected error');
    }
    // A 503 tells the caller to retry; the log tells the operator which dependency was away.
    if (transient) {
      this.logger.warn({ err: transient, requestId }, 'answered 503: a dependency is briefly unavailable');
    }
    const reply = http.getResponse<FastifyReply>();
    // A refusal that knows when it ends says so the way HTTP clients already understand (RFC 9110).
    const retryAfter = retryAfterSecondsOf(error);
    if (retryAfter !== undefined) reply.header('Retry-After', retryAfter);
    // The route may have set another content type (an image, a page) before it failed.
    reply.status(envelope.statusCode).type('application/json; charset=utf-8').send(envelope);
  }
}

function retryAfterSecondsOf(error: unknown): number | undefined {
  const seconds = error instanceof DomainError ? error.details.retryAfterSeconds : undefined;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}
