import {
  Attributes,
  Context,
  context,
  Link,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

import { tracingEnabled } from './tracing';

/**
 * Trace context across Kafka and across work stored for later (outbox rows, webhook
 * deliveries), as W3C `traceparent` headers. Each function costs nothing while tracing is off.
 */
const tracer = () => trace.getTracer('payments');

/** Where a consumed message came from, as the consumers know it. */
export interface TracedMessage {
  topic: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
}

/** The active trace context as headers, to store with work that continues later; empty while tracing is off. */
export function activeTraceHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  if (tracingEnabled()) propagation.inject(context.active(), headers);
  return headers;
}

/** The trace headers a consumed message carries, to store with work it leads to; null while tracing is off. */
export function carriedTraceContext(headers: Record<string, string>): Record<string, string> | null {
  if (!tracingEnabled()) return null;
  const carried: Record<string, string> = {};
  for (const field of propagation.fields()) if (headers[field] !== undefined) carried[field] = headers[field];
  return Object.keys(carried).length > 0 ? carried : null;
}

/**
 * Marks a message for `topic`: a producer span under the active one, whose context is written
 * into `headers` so that the consumer continues the trace. `create` for a message written now and
 * sent later (the outbox), `send` for one sent at once. Returns what ends the span.
 */
export function startProducerSpan(
  operation: 'create' | 'send',
  topic: string,
  headers: Record<string, unknown>,
): (error?: unknown) => void {
  if (!tracingEnabled()) return () => undefined;
  const span = tracer().startSpan(`${operation} ${topic}`, {
    kind: SpanKind.PRODUCER,
    attributes: messagingAttributes(operation, topic),
  });
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return (error?: unknown) => endSpan(span, error);
}

/** Runs `work` as the processing of one message, in a consumer span continuing the producer's trace. */
export function traceProcessing<T>(message: TracedMessage, group: string, work: () => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return work();
  const parent = propagation.extract(ROOT_CONTEXT, message.headers);
  const span = tracer().startSpan(
    `process ${message.topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...messagingAttributes('process', message.topic),
        'messaging.consumer.group.name': group,
        'messaging.destination.partition.id': String(message.partition),
        'messaging.kafka.offset': Number(message.offset),
      },
    },
    parent,
  );
  return runInSpan(span, trace.setSpan(parent, span), work);
}

/**
 * Runs `work` as the processing of a batch: one consumer span linked to each message's producer.
 * When every message belongs to one trace (one payment's events) the span continues it, so a
 * single flow stays one trace; a batch mixing traces starts its own.
 */
export function traceBatchProcessing<T>(messages: TracedMessage[], group: string, work: () => Promise<T>): Promise<T> {
  if (!tracingEnabled() || messages.length === 0) return work();
  const parents = messages.map((message) => propagation.extract(ROOT_CONTEXT, message.headers));
  const links: Link[] = parents.flatMap((parent) => {
    const spanContext = trace.getSpanContext(parent);
    return spanContext ? [{ context: spanContext }] : [];
  });
  const traces = new Set(links.map((link) => link.context.traceId));
  const parent = traces.size === 1 && links.length === messages.length ? parents[0] : ROOT_CONTEXT;
  const span = tracer().startSpan(
    `process ${messages[0].topic}`,
    {
      kind: SpanKind.CONSUMER,
      links,
      attributes: {
        ...messagingAttributes('process', messages[0].topic),
        'messaging.consumer.group.name': group,
        'messaging.batch.message_count': messages.length,
        'messaging.destination.partition.id': String(messages[0].partition),
      },
    },
    parent,
  );
  return runInSpan(span, trace.setSpan(parent, span), work);
}

/**
 * Runs `work` in a span continuing the trace whose headers were stored earlier (a webhook
 * delivery's); a new trace when none were stored. `work` may add attributes to the span.
 */
export function traceContinued<T>(
  stored: Record<string, string> | null | undefined,
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return work(undefined);
  const parent = propagation.extract(ROOT_CONTEXT, stored ?? {});
  const span = tracer().startSpan(name, { kind, attributes }, parent);
  return runInSpan(span, trace.setSpan(parent, span), () => work(span));
}

/** Links a batch of stored trace contexts to one span around `work` (the outbox relay's publish). */
export function traceLinked<T>(name: string, stored: Record<string, string>[], work: () => Promise<T>): Promise<T> {
  if (!tracingEnabled() || stored.length === 0) return work();
  const links: Link[] = stored.flatMap((headers) => {
    const spanContext = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, headers));
    return spanContext ? [{ context: spanContext }] : [];
  });
  if (links.length === 0) return work();
  const span = tracer().startSpan(name, { kind: SpanKind.PRODUCER, links }, ROOT_CONTEXT);
  return runInSpan(span, trace.setSpan(ROOT_CONTEXT, span), work);
}

export { SpanKind };

function messagingAttributes(operation: string, topic: string): Attributes {
  return {
    'messaging.system': 'kafka',
    'messaging.operation.type': operation,
    'messaging.destination.name': topic,
  };
}

async function runInSpan<T>(span: Span, spanContext: Context, work: () => Promise<T>): Promise<T> {
  try {
    const result = await context.with(spanContext, work);
    span.end();
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}
