import { DynamicModule, Module } from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { redactPaths } from './redaction';
import { quietRoutes, RequestLineHook } from './request-line';

export const requestIdHeader = 'x-request-id';

/** The caller's `x-request-id` when it is a sane token, else a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[requestIdHeader];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}

export interface LoggingOptions {
  /**
   * 'per-request-logger' (the default): pino-http gives each request a child logger, so every
   * line written while serving it carries the request id. 'request-line-only': one line per
   * request from a Fastify hook and nothing else per request, for an app whose requests log
   * nothing of their own (pos-ingest), where the child logger cost more than the work.
   */
  requestLogging?: 'per-request-logger' | 'request-line-only';
}

/** JSON logs through pino, one line per request, carrying a request id the caller can quote. */
@Module({})
export class LoggingModule {
  static forRoot(options: LoggingOptions = {}): DynamicModule {
    const lineOnly = options.requestLogging === 'request-line-only';
    return {
      module: LoggingModule,
      providers: lineOnly ? [RequestLineHook] : [],
      imports: [
        LoggerModule.forRootAsync({
          inject: [PlatformEnv],
          useFactory: (env: PlatformEnv) => ({
            // No routes: the middleware stays out of every request (RequestLineHook logs them).
            forRoutes: lineOnly ? [] : undefined,
            pinoHttp: {
              level: env.LOG_LEVEL,
              base: { service: env.SERVICE_NAME },
              redact: { paths: redactPaths, censor: '[redacted]' },
              // Fastify assigned it already (see requestIdOf); logs and the response agree on it.
              genReqId: (req: IncomingMessage) => req.id ?? requestIdOf(req),
              customProps: (req: IncomingMessage) => ({ requestId: req.id }),
              autoLogging: { ignore: (req: IncomingMessage) => quietRoutes.includes(req.url?.split('?')[0] ?? '') },
              serializers: {
                req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
              },
            },
          }),
        }),
      ],
    };
  }
}
