import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { toErrorEnvelope } from './to-error-envelope';

/** The one place an HTTP error becomes a response. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const { envelope, unexpected } = toErrorEnvelope(error);
    if (unexpected) this.logger.error({ err: unexpected, errorId: envelope.data.errorId }, 'unexpected error');
    host.switchToHttp().getResponse<FastifyReply>().status(envelope.statusCode).send(envelope);
  }
}
