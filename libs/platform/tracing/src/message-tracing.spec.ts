import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';

import {
  activeTraceHeaders,
  carriedTraceContext,
  SpanKind,
  startProducerSpan,
  traceBatchProcessing,
  traceContinued,
  traceProcessing,
} from './message-tracing';
import { startTracing, stopTracing, tracingEnabled } from './tracing';

const exporter = new InMemorySpanExporter();
const spanNamed = (name: string): ReadableSpan => exporter.getFinishedSpans().find((span) => span.name === name)!;

/** A message as a producer in another trace would have sent it. */
function sent(topic: string): { topic: string; partition: number; offset: string; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  startProducerSpan('send', topic, headers)();
  return { topic, partition: 0, offset: '7', headers };
}

describe('tracing turned off', () => {
  it('adds no headers and runs the work as it is', async () => {
    expect(tracingEnabled()).toBe(false);
    const headers: Record<string, string> = {};
    startProducerSpan('send', 'orders', headers)();
    expect(headers).toEqual({});
    expect(activeTraceHeaders()).toEqual({});
    expect(carriedTraceContext({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).toBeNull();
    await expect(traceProcessing(sent('orders'), 'group', async () => 'done')).resolves.toBe('done');
  });
});

describe('trace context across messages', () => {
  beforeAll(() => startTracing('unit', {}, exporter));
  afterAll(() => stopTracing());
  beforeEach(() => exporter.reset());

  it('continues the producer’s trace in the consumer, and stores the consumer’s context with later work', async () => {
    const message = sent('orders');
    expect(message.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const stored = await traceProcessing(message, 'outlet-service.events', async () => activeTraceHeaders());
    const producer = spanNamed('send orders');
    const consumer = spanNamed('process orders');
    expect(consumer.kind).toBe(SpanKind.CONSUMER);
    expect(consumer.spanContext().traceId).toBe(producer.spanContext().traceId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(consumer.attributes).toMatchObject({
      'messaging.destination.name': 'orders',
      'messaging.consumer.group.name': 'outlet-service.events',
      'messaging.kafka.offset': 7,
    });
    expect(stored.traceparent).toContain(consumer.spanContext().spanId);
  });

  it('marks the consumer span as failed when the work throws, and passes the error on', async () => {
    await expect(
      traceProcessing(sent('orders'), 'group', () => Promise.reject(new Error('database away'))),
    ).rejects.toThrow('database away');
    expect(spanNamed('process orders').status).toMatchObject({ code: 2, message: 'database away' });
  });

  it('continues the one trace a batch belongs to, and links every message', async () => {
    const first = sent('partner.events');
    const second = { ...first, offset: '8' };
    await traceBatchProcessing([first, second], 'dispatcher.bulk', async () => undefined);
    const batch = spanNamed('process partner.events');
    expect(batch.spanContext().traceId).toBe(first.headers.traceparent.split('-')[1]);
    expect(batch.links).toHaveLength(2);
  });

  it('starts a trace of its own for a batch mixing traces, linked to each', async () => {
    const messages = [sent('partner.events'), sent('partner.events')];
    await traceBatchProcessing(messages, 'dispatcher.bulk', async () => undefined);
    const batch = spanNamed('process partner.events');
    expect(batch.parentSpanContext).toBeUndefined();
    expect(batch.links.map((link) => link.context.traceId)).toEqual(
      messages.map((message) => message.headers.traceparent.split('-')[1]),
    );
  });

  it('resumes stored work (a webhook delivery) in the trace it was stored from', async () => {
    const message = sent('partner.events');
    const carried = carriedTraceContext({ ...message.headers, 'event-id': 'e-1' });
    expect(Object.keys(carried ?? {})).toEqual(['traceparent']);
    await traceContinued(carried, 'POST webhook', SpanKind.CLIENT, { 'webhook.event': 'x' }, async (span) => {
      expect(trace.getActiveSpan()).toBe(span);
    });
    const delivery = spanNamed('POST webhook');
    expect(delivery.spanContext().traceId).toBe(spanNamed('send partner.events').spanContext().traceId);
  });
});
