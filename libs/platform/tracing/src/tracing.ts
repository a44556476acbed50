import FastifyOtelInstrumentation from '@fastify/otel';
import { diag, DiagConsoleLogger, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { urlWithoutSecrets } from '@payments/platform-logging';
import type { FastifyPluginCallback } from 'fastify';

let provider: NodeTracerProvider | undefined;
let fastifyInstrumentation: FastifyOtelInstrumentation | undefined;

/** Tracing is on only where an OTLP endpoint is configured, and OTEL_SDK_DISABLED does not turn it off. */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED !== 'true';
}

/** Whether this process records spans: every tracing call below is a no-op otherwise. */
export function tracingEnabled(): boolean {
  return provider !== undefined;
}

/**
 * Starts OpenTelemetry for the process named `serviceName`, if an OTLP endpoint is configured
 * (the standard OTEL_* variables: endpoint, headers, sampler). It must run before `pg` is first
 * loaded, so each app's main.ts imports its `tracing.ts` first.
 *
 * What is recorded: HTTP requests in (@fastify/otel, without a span per hook), PostgreSQL
 * statements made while serving something (never the background polls, never parameter values),
 * Kafka publish and consume (see message-tracing.ts) and webhook deliveries out.
 */
export function startTracing(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
  /** Where spans go instead of OTLP: unit tests pass an in-memory exporter. */
  exporter?: SpanExporter,
): void {
  if (provider || !(exporter || tracingConfigured(env))) return;
  diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.WARN);
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  fastifyInstrumentation = new FastifyOtelInstrumentation({
    instrumentHooks: false,
    // Probes and scrapes every few seconds would bury the traces worth reading.
    ignorePaths: ({ url }) => url.startsWith('/health') || url.startsWith('/metrics'),
    // Named by route, as HTTP server spans are: "POST /transfer/internal".
    requestHook: (span, request) => {
      span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`);
      span.setAttribute('url.path', urlWithoutSecrets(request.url));
    },
    lifecycleHook: (span, { hookName, request }) => {
      if (hookName === 'handler') span.updateName(`handle ${request.method} ${request.routeOptions.url}`);
    },
  });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Only statements made while serving something: never the background polls, never parameter values.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      fastifyInstrumentation,
    ],
  });
}

/** The Fastify plugin that traces requests in; register it before any route. Undefined while tracing is off. */
export function fastifyTracingPlugin(): FastifyPluginCallback | undefined {
  return fastifyInstrumentation?.plugin();
}

/** Sends the spans still buffered; called on shutdown. */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = undefined;
  await stopping?.shutdown().catch(() => undefined);
}
