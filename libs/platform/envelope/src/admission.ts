import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { ExtendRouteConfig, routeConfigOf } from './route-config';

/** Requests that passed their route's admission before their body was read, with its name. */
const admitted = new WeakMap<FastifyRequest, string>();

/**
 * The route's requests pass the check an app registered as `admission` (admitBeforeBody)
 * before their body is read: on a route or a controller, beside the guard that runs the same
 * check for a request that did not pass it yet.
 */
export const AdmitBeforeBody = (admission: string) => ExtendRouteConfig({ admission });

/**
 * Runs `admit` on every request to a route marked `AdmitBeforeBody(admission)`, before its body
 * is read. Nest's guards run after the body was parsed, so a body that is refused (400 bad JSON,
 * 413 too large, 415 not JSON) never reached them: its answer lacked what a guard adds (the
 * RateLimit headers) and the request went uncounted, so a bad body slipped past the limit. What
 * `admit` throws is answered as any error; what it writes on the reply stays on every answer.
 */
export function admitBeforeBody(
  fastify: FastifyInstance,
  admission: string,
  admit: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
): void {
  fastify.addHook('preParsing', async (request, reply, payload) => {
    if (routeConfigOf(request).admission === admission) {
      await admit(request, reply);
      admitted.set(request, admission);
    }
    return payload;
  });
}

/**
 * Whether the request passed `admission` before its body was read: that admission's guard must
 * not count it again. Another admission it passed does not stand in for this one.
 */
export function admittedBeforeBody(request: FastifyRequest, admission: string): boolean {
  return admitted.get(request) === admission;
}
