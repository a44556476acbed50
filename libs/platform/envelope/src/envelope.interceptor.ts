import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiEnvelope } from '@payments/contracts';
import type { FastifyReply } from 'fastify';
import { map, Observable } from 'rxjs';

const successMessageKey = 'envelope:success-message';
const rawResponseKey = 'envelope:raw';

/** The `message` of a handler's success envelope. */
export const SuccessMessage = (message: string) => SetMetadata(successMessageKey, message);

/** The handler answers something other than JSON (Prometheus text, HTML) and is left alone. */
export const RawResponse = () => SetMetadata(rawResponseKey, true);

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const targets = [context.getHandler(), context.getClass()];
    if (context.getType() !== 'http' || this.reflector.getAllAndOverride<boolean>(rawResponseKey, targets)) {
      return next.handle();
    }
    const message = this.reflector.getAllAndOverride<string>(successMessageKey, targets) ?? 'Request successful';
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next
      .handle()
      .pipe(map((data): ApiEnvelope => ({ status: true, statusCode: reply.statusCode, message, data: data ?? {} })));
  }
}
