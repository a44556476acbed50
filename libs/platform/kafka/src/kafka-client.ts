import { readFileSync } from 'node:fs';
import { connect as plainConnect, isIP } from 'node:net';
import { connect as tlsConnect, ConnectionOptions } from 'node:tls';

import { Logger } from '@nestjs/common';
import { KafkaSecuritySettings } from '@payments/platform-config';
import { ISocketFactory, Kafka, KafkaConfig, LogEntry, logLevel } from 'kafkajs';

export const KAFKA_CLIENT = Symbol('KAFKA_CLIENT');

/**
 * What every consumer of the platform shares: topics exist before anyone reads them, a dead
 * member is noticed within 15 s, and fetches are long polls (one returns as soon as data
 * arrives, so an idle consumer asks about once a second). Its view of the cluster is at most a
 * second old before a fetch: kafkajs refreshes it by age only (five minutes by default), so a
 * consumer whose partitions' leader was killed kept fetching from the dead broker until its
 * retries ran out, eight seconds, longer than the gateway waits for a command. It retries
 * often and for long (up to 30 s) before it gives up and starts again: a consumer that starts
 * again joins as a new member, and its group waits a session timeout for the old one.
 */
export const consumerSettings = {
  allowAutoTopicCreation: false,
  sessionTimeout: 15_000,
  heartbeatInterval: 3000,
  maxWaitTimeInMs: 1000,
  metadataMaxAge: 1000,
  retry: { initialRetryTime: 100, retries: 30, maxRetryTime: 1000 },
} as const;

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
  /** TLS and SASL, as `kafkaSecurity` reads them from the environment; none on a local broker. */
  security?: KafkaSecurity;
}

export type KafkaSecurity = Pick<KafkaConfig, 'ssl' | 'sasl' | 'socketFactory'>;

/** A mounted secret's text, without the newline editors and `kubectl create secret --from-file` leave. */
const secretFile = (path: string) => readFileSync(path, 'utf8').replace(/\r?\n$/, '');

/**
 * The CA bundle and client certificate, read from their files for each new connection: a
 * cluster CA renewed in its mounted Secret (Strimzi renews it, and trusts old and new together
 * for a while) is trusted by the next connection, without a restart. A file that cannot be read
 * mid-update leaves the last one read.
 */
export function tlsFiles(env: KafkaSecuritySettings): () => ConnectionOptions {
  let last: ConnectionOptions = {};
  return () => {
    try {
      const ca = env.KAFKA_TLS_CA_FILE ? readFileSync(env.KAFKA_TLS_CA_FILE, 'utf8') : undefined;
      // A file caught empty or half-written mid-swap holds no whole certificate: keep the last.
      if (ca !== undefined && !/-----END CERTIFICATE-----/.test(ca) && Object.keys(last).length > 0) return last;
      last = {
        ...(ca !== undefined ? { ca: [ca] } : {}),
        ...(env.KAFKA_TLS_CERT_FILE && env.KAFKA_TLS_KEY_FILE
          ? { cert: readFileSync(env.KAFKA_TLS_CERT_FILE, 'utf8'), key: readFileSync(env.KAFKA_TLS_KEY_FILE, 'utf8') }
          : {}),
      };
    } catch (error) {
      if (Object.keys(last).length === 0) throw error;
    }
    return last;
  };
}

/** kafkajs's own socket factory, with the TLS files read again for each connection. */
function socketsReading(files: () => ConnectionOptions): ISocketFactory {
  return ({ host, port, ssl, onConnect }) => {
    const socket = ssl
      ? tlsConnect({ host, port, ...(isIP(host) ? {} : { servername: host }), ...ssl, ...files() }, onConnect)
      : plainConnect({ host, port }, onConnect);
    socket.setKeepAlive(true, 60_000);
    return socket;
  };
}

/**
 * kafkajs's TLS and SASL options from settings loadEnv has checked (see kafkaSecurityProblems).
 * TLS files are read again for each connection (tlsFiles); SASL secrets once, at start, so a
 * rotated password takes a restart, as a rolled pod does.
 */
export function kafkaSecurity(env: KafkaSecuritySettings): KafkaSecurity {
  const security: KafkaSecurity = {};
  if (env.KAFKA_TLS) {
    const files = tlsFiles(env);
    const first = files();
    security.ssl = Object.keys(first).length > 0 ? first : true;
    if (security.ssl !== true) security.socketFactory = socketsReading(files);
  }
  if (env.KAFKA_SASL_MECHANISM) {
    const username = env.KAFKA_SASL_USERNAME ?? secretFile(env.KAFKA_SASL_USERNAME_FILE!);
    const password = env.KAFKA_SASL_PASSWORD ?? secretFile(env.KAFKA_SASL_PASSWORD_FILE!);
    security.sasl =
      env.KAFKA_SASL_MECHANISM === 'plain'
        ? { mechanism: 'plain', username, password }
        : env.KAFKA_SASL_MECHANISM === 'scram-sha-256'
          ? { mechanism: 'scram-sha-256', username, password }
          : { mechanism: 'scram-sha-512', username, password };
  }
  return security;
}

const levels: Record<number, 'error' | 'warn' | 'log' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'log',
  [logLevel.DEBUG]: 'debug',
};

/** A kafkajs client whose own logging goes through the app's logger at WARN and above. */
export function createKafkaClient({ brokers, clientId, security = {} }: KafkaClientOptions): Kafka {
  const logger = new Logger('kafkajs');
  return new Kafka({
    clientId,
    brokers,
    ...security,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { initialRetryTime: 200, retries: 5, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, namespace, log }: LogEntry) => {
        const { message, ...rest } = log;
        logger[levels[level] ?? 'log']({ namespace, ...rest }, message);
      },
  });
}
