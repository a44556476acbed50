import type { ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';

import { StreamableFile } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ApiEnvelope } from '@payments/contracts';
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';

import { ExtendRouteConfig, routeConfigOf } from './route-config';

const defaultMessage = 'Request successful';

/** The `message` of a handler's success envelope. */
export const SuccessMessage = (message: string) => ExtendRouteConfig({ envelope: { message } });

/** The handler answers something other than JSON (Prometheus text, HTML) and is left alone. */
export const RawResponse = () => ExtendRouteConfig({ envelope: false });

const formType = 'application/x-www-form-urlencoded';

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
    const envelope = routeConfigOf(reply.request).envelope;
    if (envelope === false || body instanceof StreamableFile) return super.reply(response, body, statusCode);
    const answer: ApiEnvelope = {
      status: true,
      statusCode: statusCode ?? reply.statusCode,
      message: envelope?.message ?? defaultMessage,
      data: body ?? {},
    };
    return super.reply(response, answer, statusCode);
  }

  /**
   * Bodies are JSON: any other body, or one without a Content-Type, answers 415
   * UNSUPPORTED_MEDIA_TYPE before a handler sees it. Fastify would read `text/plain` as a string
   * and Nest adds a form parser to every route, so a JSON body sent under either type reached
   * validation as no fields at all (a 422 naming each as missing). Form posts are read only on
   * routes that take them (AcceptsFormPosts). A request without a body may name any other type.
   */
  override registerParserMiddleware(prefix?: string, rawBody?: boolean): void {
    super.registerParserMiddleware(prefix, rawBody);
    const fastify = this.getInstance();
    fastify.removeContentTypeParser(['text/plain', formType]);
    this.useBodyParser(formType, !!rawBody, { bodyLimit: fastify.initialConfig.bodyLimit }, (request, body, done) => {
      if (routeConfigOf(request).formPosts) done(null, parseForm(body.toString('utf8')));
      else if (body.length === 0) done(null, undefined);
      else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
    });
    // Every other type, and none: refused unread, unless the request says it has no body.
    fastify.addContentTypeParser('*', (request: FastifyRequest, _payload: unknown, done) => {
      // As Fastify tells a bodiless request: neither a length (or a zero one) nor chunks.
      const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
      if (chunked === undefined && (length === undefined || length === '0')) done(null, undefined);
      else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
    });
  }
}
