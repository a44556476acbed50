import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Observable, throwError } from 'rxjs';

import { toErrorEnvelope } from './to-error-envelope';

/** The one place an HTTP error becomes a response. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(error: unknown, host: ArgumentsHost): void | Observable<never> {
    // Kafka handlers: hand the error back to the transport, which leaves the offset uncommitted.
    if (host.getType() !== 'http') return throwError(() => error);
    const { envelope, unexpected, transient } = toErrorEnvelope(error);
    if (unexpected) this.logger.error({ err: unexpected, errorId: envelope.data.errorId }, 'unexpected error');
    // A 503 tells the caller to retry; the log tells the operator which dependency was away.
    if (transient) this.logger.warn({ err: transient }, 'answered 503: a dependency is briefly unavailable');
    // The route may have set another content type (an image, a page) before it failed.
    host
      .switchToHttp()
      .getResponse<FastifyReply>()
      .status(envelope.statusCode)
      .type('application/json; charset=utf-8')
      .send(envelope);
  }
}
