import { AsyncLocalStorage } from 'node:async_hooks';

import { trace } from '@opentelemetry/api';

/** What every log line written while serving one request or message carries. */
export interface RequestContext {
  requestId: string;
}

/**
 * The request (or Kafka message) being served, for log lines written anywhere below it. Entered
 * once per request by a Fastify hook: cheaper than a child logger per request, and it reaches
 * code that has no logger of its own to pass along.
 */
export const requestContext = new AsyncLocalStorage<RequestContext>();

/**
 * pino's mixin: the current request id on every line written while serving it, and where
 * tracing is on, the trace id, so that a log line leads to its trace.
 */
export function logContextMixin(): { requestId?: string; traceId?: string } {
  const requestId = requestContext.getStore()?.requestId;
  const traceId = trace.getActiveSpan()?.spanContext().traceId;
  // Runs for every log line: one small object, no spreading.
  if (traceId) return requestId ? { requestId, traceId } : { traceId };
  return requestId ? { requestId } : {};
}
