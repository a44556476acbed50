import type { ServerResponse } from 'node:http';

import { StreamableFile } from '@nestjs/common';
import { FastifyAdapter, RouteConfig } from '@nestjs/platform-fastify';
import { ApiEnvelope } from '@payments/contracts';
import type { FastifyReply } from 'fastify';

/** What a route's Fastify config says about its success envelope: its message, or none at all. */
interface EnvelopeConfig {
  envelope?: { message: string } | false;
}

const defaultMessage = 'Request successful';

/** The `message` of a handler's success envelope. */
export const SuccessMessage = (message: string) => RouteConfig({ envelope: { message } } satisfies EnvelopeConfig);

/** The handler answers something other than JSON (Prometheus text, HTML) and is left alone. */
export const RawResponse = () => RouteConfig({ envelope: false } satisfies EnvelopeConfig);

/**
 * Fastify as every app serves it: a controller's answer goes out in the success envelope
 * `{status, statusCode, message, data}`, with the HTTP status Nest set for the route. Errors
 * never pass here: ApiExceptionFilter sends their envelope itself.
 *
 * The envelope is added as Nest hands the answer over rather than by a Nest interceptor: on
 * Node 20 any interceptor costs about 110 µs of CPU a request (an AsyncResource bound twice and
 * an rxjs pipeline), twice what Nest and Fastify spend on a whole plain route.
 */
export class EnvelopingFastifyAdapter extends FastifyAdapter {
  override reply(response: FastifyReply | ServerResponse, body: unknown, statusCode?: number) {
    const reply = response as FastifyReply;
    const envelope = (reply.request?.routeOptions.config as EnvelopeConfig | undefined)?.envelope;
    if (envelope === false || body instanceof StreamableFile) return super.reply(response, body, statusCode);
    const answer: ApiEnvelope = {
      status: true,
      statusCode: statusCode ?? reply.statusCode,
      message: envelope?.message ?? defaultMessage,
      data: body ?? {},
    };
    return super.reply(response, answer, statusCode);
  }
}
