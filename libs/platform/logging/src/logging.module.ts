import { DynamicModule, Module } from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { redactPaths } from './redaction';

export const requestIdHeader = 'x-request-id';

/** The caller's `x-request-id` when it is a sane token, else a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[requestIdHeader];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}
const quietRoutes = ['/health/live', '/health/ready', '/metrics'];

/** JSON logs through pino, one line per request, carrying a request id the caller can quote. */
@Module({})
export class LoggingModule {
  static forRoot(): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [PlatformEnv],
          useFactory: (env: PlatformEnv) => ({
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
