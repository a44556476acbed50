import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { DynamicModule, Module } from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';

import { errorWithoutQueryValues } from './query-error-serializer';
import { redactPaths, urlWithoutSecrets } from './redaction';
import { logContextMixin } from './request-context';
import { RequestLineHook } from './request-line';

export const requestIdHeader = 'x-request-id';

/** The caller's `x-request-id` when it is a sane token, else a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[requestIdHeader];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}

/** Every app's pino settings: its level and name, redaction, and serializers that keep secrets out. */
export function pinoHttpOptions(env: Pick<PlatformEnv, 'LOG_LEVEL' | 'SERVICE_NAME'>): Options {
  return {
    level: env.LOG_LEVEL,
    base: { service: env.SERVICE_NAME },
    redact: { paths: redactPaths, censor: '[redacted]' },
    mixin: logContextMixin,
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: urlWithoutSecrets(req.url),
      }),
      err: errorWithoutQueryValues,
    },
  };
}

/**
 * JSON logs through pino, one line per request. Every line written while serving a request
 * carries its request id (from the request context, not a child logger built per request,
 * which cost more than most requests' own work); the request line comes from a Fastify hook.
 */
@Module({})
export class LoggingModule {
  static forRoot(): DynamicModule {
    return {
      module: LoggingModule,
      providers: [RequestLineHook],
      imports: [
        LoggerModule.forRootAsync({
          inject: [PlatformEnv],
          useFactory: (env: PlatformEnv) => ({
            // No routes: pino-http stays out of every request (RequestLineHook logs them).
            forRoutes: [],
            pinoHttp: pinoHttpOptions(env),
          }),
        }),
      ],
    };
  }
}
