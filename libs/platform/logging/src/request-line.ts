import type { IncomingMessage, ServerResponse } from 'node:http';

import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PlatformEnv } from '@payments/platform-config';
import type { FastifyInstance } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';

import { requestContext } from './request-context';

/** Probes and scrapes: too frequent to be worth a line each. */
export const quietRoutes = ['/health/live', '/health/ready', '/metrics'];

/**
 * The line pino-http writes when a request ends: the same fields through the same
 * serializers, written by the root logger rather than a child built for each request.
 */
export function logRequestLine(
  logger: Logger,
  req: IncomingMessage & { id: string },
  res: ServerResponse,
  responseTime: number,
): void {
  const fields = { requestId: req.id, req, res, responseTime };
  if (res.statusCode >= 500) logger.error(fields, 'request errored');
  else logger.info(fields, 'request completed');
}

/**
 * Serves each request inside its request context (unless LOG_REQUEST_CONTEXT is off), and writes
 * its line from Fastify's onResponse hook.
 */
@Injectable()
export class RequestLineHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly env: PlatformEnv,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    if (this.env.LOG_REQUEST_CONTEXT) {
      fastify.addHook('onRequest', (request, _reply, done) => requestContext.run({ requestId: request.id }, done));
    }
    fastify.addHook('onResponse', (request, reply, done) => {
      if (!quietRoutes.includes(request.routeOptions.url ?? '')) {
        logRequestLine(PinoLogger.root, request.raw as IncomingMessage & { id: string }, reply.raw, reply.elapsedTime);
      }
      done();
    });
  }
}
