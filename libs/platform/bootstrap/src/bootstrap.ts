import type { IncomingMessage } from 'node:http';

import { DynamicModule, Logger as NestLogger, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { withinTimeout } from '@payments/platform-async';
import { InvalidEnvironmentError, loadEnv, PlatformEnv, trustedProxies } from '@payments/platform-config';
import { AppDatabase, migrate, postgresOptions, SchemaState } from '@payments/platform-database';
import {
  answerClientError,
  cacheValidationMetadataLookups,
  EnvelopingFastifyAdapter,
  toErrorEnvelope,
} from '@payments/platform-envelope';
import { ShutdownState } from '@payments/platform-health';
import { KafkaAdmin, KafkaConsumers } from '@payments/platform-kafka';
import { requestIdHeader, requestIdOf } from '@payments/platform-logging';
import { Metrics } from '@payments/platform-metrics';
import { fastifyTracingPlugin, stopTracing } from '@payments/platform-tracing';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';

import { ApiDocsOptions, setupApiDocs } from './api-docs.setup';
import { PlatformModule } from './platform.module';

export interface AppSpec<E extends PlatformEnv> {
  envClass: new () => E;
  database: AppDatabase;
  /** The app's feature modules, imported after the platform's. */
  features: Type[];
  /**
   * Relay the app's outbox to Kafka; on unless the app never writes events, so that an app that
   * starts writing them cannot forget to send them.
   */
  outboxRelay?: boolean;
  docs?: ApiDocsOptions;
  /** Run the app's Kafka handlers (@EventHandler, @CommandHandler); on unless a test calls handlers directly. */
  kafkaConsumer?: boolean;
}

/** An app's root module: the platform, configured from its validated environment, then the app's features. */
@Module({})
export class AppModule {}

function appModule<E extends PlatformEnv>(spec: AppSpec<E>, env: E): DynamicModule {
  return {
    module: AppModule,
    imports: [PlatformModule.forRoot(env, spec.database, { outboxRelay: spec.outboxRelay ?? true }), ...spec.features],
  };
}

/** Reads the environment or stops the process with a message naming each bad variable. */
export function loadEnvOrExit<E extends object>(envClass: new () => E): E {
  return exitOnInvalidEnvironment(() => loadEnv(envClass));
}

/** What `read` returns, or the process stops with its InvalidEnvironmentError's message and EX_CONFIG. */
function exitOnInvalidEnvironment<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
}

/** Builds the app without listening: what `main.ts` runs, and what integration tests inject into. */
export async function createApp<E extends PlatformEnv>(spec: AppSpec<E>, env: E): Promise<NestFastifyApplication> {
  cacheValidationMetadataLookups();
  const adapter = new EnvelopingFastifyAdapter({
    bodyLimit: env.HTTP_BODY_LIMIT_BYTES,
    // Fastify walks X-Forwarded-For from the right, past these only: the client is the first it does not trust.
    trustProxy: trustedProxies(env),
    return503OnClosing: true,
    genReqId: (req: IncomingMessage) => (req.id = requestIdOf(req)),
    clientErrorHandler: answerClientError,
    // Errors Fastify raises before routing (a URL that does not decode, a path parameter over
    // 100 characters) get the envelope too.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const { envelope } = toErrorEnvelope(error);
      // Before routing there is no serializer for objects, and no hooks ran: send the JSON text.
      // A HEAD answer carries no body: Fastify does not strip it on this path.
      void reply
        .code(envelope.statusCode)
        .header(requestIdHeader, request.id)
        .type('application/json; charset=utf-8')
        .send(request.method === 'HEAD' ? undefined : JSON.stringify(envelope));
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(appModule(spec, env), adapter, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  // Before any route exists: the plugin wraps each route's handler as it is added.
  const tracingPlugin = fastifyTracingPlugin();
  if (tracingPlugin) await app.register(tracingPlugin);
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(Metrics);
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(requestIdHeader, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
    done();
  });
  if (spec.docs) setupApiDocs(app, spec.docs);
  await app.init();
  if (spec.kafkaConsumer ?? true) {
    // Without its topics, or before its release's migrations ran, the app still serves, answering
    // not-ready with what is missing; its consumers join once both are in place.
    const schema = app.get(SchemaState);
    const inPlace =
      app.get(KafkaAdmin).topicsPresent && (await withinTimeout(schema.behind(), 2000).catch(() => 'unread')) === null;
    const consumers = app.get(KafkaConsumers);
    // In place, a failure to join fails the start; joined later, it is retried (startUntilJoined).
    const joining = schema.untilCurrent().then(() => (inPlace ? consumers.start() : consumers.startUntilJoined()));
    if (inPlace) await joining;
    else {
      joining.catch((error: Error) => {
        // untilCurrent rejects when the app stops first; anything else leaves a pod consuming nothing.
        if (app.get(ShutdownState).draining) return;
        new NestLogger('kafka').error(`the consumers will not start: ${error.message}`);
      });
    }
  }
  return app;
}

/** main.ts of every app: config, migrations, HTTP, and a graceful SIGTERM. */
export async function bootstrapApp<E extends PlatformEnv>(spec: AppSpec<E>): Promise<NestFastifyApplication> {
  const env = loadEnvOrExit(spec.envClass);
  // Checked here, not in the Env: operator commands share it and take no requests.
  exitOnInvalidEnvironment(() => trustedProxies(env));
  if (env.MIGRATE_ON_START) {
    await migrate(postgresOptions(env.DATABASE_URL, 2, spec.database), {
      appRole: env.DATABASE_APP_ROLE,
      grants: spec.database.grants,
    });
  }
  const app = await createApp(spec, env);
  await app.listen({ port: env.PORT, host: env.HOST });
  stopGracefullyOnSignals(app, env);
  return app;
}

/**
 * SIGTERM or SIGINT: stop taking requests, finish in-flight ones and the outbox batch, close
 * Kafka and the pool, exit 0. If draining takes longer than SHUTDOWN_TIMEOUT_MS, exit 1.
 */
function stopGracefullyOnSignals(app: NestFastifyApplication, env: PlatformEnv): void {
  const logger = new NestLogger('shutdown');
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: draining`);
    setTimeout(() => {
      logger.error(`still draining after ${env.SHUTDOWN_TIMEOUT_MS} ms: exiting`);
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS).unref();
    app
      .close()
      .then(stopTracing)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
