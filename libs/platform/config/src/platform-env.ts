import { IsIn, IsOptional, IsString, IsUrl, Matches } from 'class-validator';

import { KafkaSaslMechanism, kafkaSaslMechanisms, kafkaSecurityProblems } from './kafka-security';
import { BooleanSetting, IntSetting } from './settings';
import { TrustedProxiesSetting } from './trusted-proxies';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const traceSamplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * What every app reads from the environment. Each app's Env extends it and sets its own
 * defaults (PORT, SERVICE_NAME). Every property needs an initialiser: the loader only
 * reads variables the class declares.
 */
export class PlatformEnv {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @IsString()
  SERVICE_NAME: string = 'payments';

  @IsString()
  HOST: string = '0.0.0.0';

  @IntSetting(1, 65535) PORT: number = 3000;

  @IsIn(logLevels)
  LOG_LEVEL: (typeof logLevels)[number] = 'info';

  /**
   * A laptop's platform (docker-compose.yml, the local Kubernetes overlay) runs as production
   * with the development keys this repository publishes; anywhere else they stop the app.
   */
  @BooleanSetting() ALLOW_DEVELOPMENT_KEYS: boolean = false;

  /**
   * How sealed values are written: `v2` names the key of its ring that sealed it; `v1`, as
   * releases before key rings sealed, only while one of them may still run beside this release
   * (docs/operations.md, "Upgrading from DATA_ENCRYPTION_KEY"). Either is read.
   */
  @IsIn(['v1', 'v2'])
  SEALED_FORMAT: 'v1' | 'v2' = 'v2';

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/payments';

  @IntSetting(1, 100) DATABASE_POOL_SIZE: number = 10;

  /**
   * For migrations run as the schema's owner (the Job, `npm run migrate`): the login the app
   * runs as, granted its own schema and nothing else after each run. Unset, nothing is granted.
   */
  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'must be a plain lower-case role name' })
  DATABASE_APP_ROLE?: string = undefined;

  /** Run this app's migrations at start (under an advisory lock); off when a deploy step runs them. */
  @BooleanSetting() MIGRATE_ON_START: boolean = true;

  /**
   * Carry the request (or message) id to every log line written below it, through
   * AsyncLocalStorage. On Node 20 that hooks every promise of the process; an app whose hot path
   * writes no line below its handler turns it off (request and error lines name the id themselves).
   */
  @BooleanSetting() LOG_REQUEST_CONTEXT: boolean = true;

  @Matches(/^[^\s,]+:\d+(,[^\s,]+:\d+)*$/, { message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS: string = '127.0.0.1:9092';

  @IsOptional()
  @IsString()
  KAFKA_CLIENT_ID?: string = undefined;

  /** Connect to the brokers over TLS, trusting the system's CAs and KAFKA_TLS_CA_FILE's. */
  @BooleanSetting() KAFKA_TLS: boolean = false;

  /** PEM bundle of the CAs that sign the brokers' certificates (a cluster's own CA, Strimzi's say). */
  @IsOptional()
  @IsString()
  KAFKA_TLS_CA_FILE?: string = undefined;

  /** PEM client certificate and its key, for clusters that authenticate clients by certificate (mTLS). */
  @IsOptional()
  @IsString()
  KAFKA_TLS_CERT_FILE?: string = undefined;

  @IsOptional()
  @IsString()
  KAFKA_TLS_KEY_FILE?: string = undefined;

  /** SASL authentication; with it, a username and a password, each inline or from a mounted file. */
  @IsOptional()
  @IsIn(kafkaSaslMechanisms)
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism = undefined;

  @IsOptional()
  @IsString()
  KAFKA_SASL_USERNAME?: string = undefined;

  @IsOptional()
  @IsString()
  KAFKA_SASL_USERNAME_FILE?: string = undefined;

  @IsOptional()
  @IsString()
  KAFKA_SASL_PASSWORD?: string = undefined;

  @IsOptional()
  @IsString()
  KAFKA_SASL_PASSWORD_FILE?: string = undefined;

  /** Kafka handlers: how many partitions an instance works on at once (order holds within each). */
  @IntSetting(1, 64) KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY: number = 6;

  /**
   * While commands flow, bulk handlers rest this many times as long as their work took: 4 leaves
   * a backlog a fifth of the time, 0 lets it run flat out. See BulkYield.
   */
  @IntSetting(0, 20) KAFKA_BULK_YIELD: number = 4;

  /**
   * How long the producer waits for more messages before sending what it holds (Kafka's
   * linger.ms), while messages come in company: a produce request costs the app and the broker far
   * more than a millisecond. After a request of one message the next goes at once. See BatchedWrites.
   */
  @IntSetting(0, 50) KAFKA_PRODUCER_LINGER_MS: number = 1;

  @IntSetting(1, 5000) OUTBOX_BATCH_SIZE: number = 200;

  @IntSetting(10, 60_000) OUTBOX_POLL_INTERVAL_MS: number = 1000;

  /** Sent outbox rows are kept this long for investigation, then deleted. */
  @IntSetting(1, 24 * 365) OUTBOX_RETENTION_HOURS: number = 72;

  /**
   * Consumer dedupe records (processed_events) are kept this long. Must exceed the retention
   * of every topic (Kafka's default is 7 days), or a redelivered event could apply twice.
   */
  @IntSetting(24, 24 * 365) PROCESSED_EVENTS_RETENTION_HOURS: number = 14 * 24;

  /** Largest accepted request body; bigger ones get 413. */
  @IntSetting(1024, 10 * 1024 * 1024) HTTP_BODY_LIMIT_BYTES: number = 64 * 1024;

  /**
   * Peers whose X-Forwarded-For is believed (addresses, CIDRs, or proxy-addr's `loopback`,
   * `linklocal`, `uniquelocal`, comma-separated; `none` for none): the client's address is the
   * right-most one a trusted proxy did not add, so a caller cannot name its own. Required in
   * production (trustedProxies); elsewhere unset means loopback and private networks.
   */
  @IsOptional()
  @TrustedProxiesSetting()
  TRUSTED_PROXIES?: string = undefined;

  /** How long SIGTERM may take to drain in-flight work before the process exits anyway. */
  @IntSetting(1000, 60_000) SHUTDOWN_TIMEOUT_MS: number = 8000;

  /**
   * Where traces go (an OpenTelemetry collector's OTLP/HTTP endpoint, e.g. http://collector:4318);
   * unset, nothing is traced. The other standard OTEL_* variables (sampler, headers) apply too.
   */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string = undefined;

  /** Which traces are kept (OpenTelemetry's names); every one unless set. */
  @IsOptional()
  @IsIn(traceSamplers)
  OTEL_TRACES_SAMPLER?: (typeof traceSamplers)[number] = undefined;

  /** The ratio a `traceidratio` sampler keeps, from 0 to 1. */
  @IsOptional()
  @Matches(/^(0(\.\d+)?|1(\.0+)?)$/, { message: 'must be a ratio from 0 to 1' })
  OTEL_TRACES_SAMPLER_ARG?: string = undefined;

  /** What no single variable's rule can see: settings that only make sense together (loadEnv asks). */
  settingProblems(): string[] {
    return kafkaSecurityProblems(this);
  }
}

export function kafkaBrokerList(env: PlatformEnv): string[] {
  return env.KAFKA_BROKERS.split(',');
}
