import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadEnv, PlatformEnv } from '@payments/platform-config';
import { applyTopics, createKafkaClient, kafkaSecurity } from '@payments/platform-kafka';
import { PrivateBroker, PrivatePostgres, uniqueName } from '@payments/testing';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Kafka,
  Partitioners,
  ResourcePatternTypes,
} from 'kafkajs';
import { Client } from 'pg';

import { spawnApp, waitForReady } from './apps';

jest.setTimeout(240_000);

/** The apps against a broker secured as clusters are (TLS, SASL and ACLs), and PostgreSQL over TLS. */
describe('a secured Kafka cluster, and PostgreSQL over TLS', () => {
  const users = { admin: 'admin-secret', 'checkout-gateway': 'gateway-secret' };
  const broker = new PrivateBroker(19492, 19493, users);

  beforeAll(() => broker.start());
  afterAll(() => broker.destroy());

  /** A client built as an app builds one, from the settings an operator gives it. */
  const clientFrom = (settings: Record<string, string>): Kafka => {
    const env = loadEnv(PlatformEnv, { KAFKA_BROKERS: broker.brokers, ...settings });
    return createKafkaClient({
      brokers: [broker.brokers],
      clientId: uniqueName('secured'),
      security: kafkaSecurity(env),
    });
  };
  const passwordFile = (password: string) => {
    const path = join(broker.dataDir, uniqueName('password'));
    writeFileSync(path, `${password}\n`);
    return path;
  };
  const scramAdmin = () =>
    clientFrom({
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: broker.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'admin',
      KAFKA_SASL_PASSWORD_FILE: passwordFile(users.admin),
    });

  it('round-trips a message over TLS with SCRAM-SHA-512, the password from a mounted file', async () => {
    const kafka = scramAdmin();
    const admin = kafka.admin();
    await admin.connect();
    const topic = uniqueName('secured');
    await applyTopics(admin, [{ name: topic, partitions: 1 }]);
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'k', value: 'over TLS' }] });
    const consumer = kafka.consumer({ groupId: uniqueName('secured') });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received = await new Promise<string>((resolve) => {
      void consumer.run({ eachMessage: async ({ message }) => resolve(message.value!.toString()) });
    });
    expect(received).toBe('over TLS');
    await Promise.all([consumer.disconnect(), producer.disconnect(), admin.disconnect()]);
  });

  it("lets a principal with PLAIN do only what its ACLs grant: its topic, never another's", async () => {
    const admin = scramAdmin().admin();
    await admin.connect();
    const [granted, other] = [uniqueName('granted'), uniqueName('other')];
    await applyTopics(
      admin,
      [granted, other].map((name) => ({ name, partitions: 1 })),
    );
    await admin.createAcls({
      acl: [AclOperationTypes.WRITE, AclOperationTypes.DESCRIBE].map((operation) => ({
        resourceType: AclResourceTypes.TOPIC,
        resourceName: granted,
        resourcePatternType: ResourcePatternTypes.LITERAL,
        principal: 'User:checkout-gateway',
        host: '*',
        operation,
        permissionType: AclPermissionTypes.ALLOW,
      })),
    });
    const producer = clientFrom({
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: broker.caFile,
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: 'checkout-gateway',
      KAFKA_SASL_PASSWORD: users['checkout-gateway'],
    }).producer({ createPartitioner: Partitioners.DefaultPartitioner, retry: { retries: 0 } });
    await producer.connect();
    await expect(producer.send({ topic: granted, messages: [{ value: 'mine' }] })).resolves.toHaveLength(1);
    await expect(producer.send({ topic: other, messages: [{ value: 'theirs' }] })).rejects.toThrow(
      'Not authorized to access topics',
    );
    await Promise.all([producer.disconnect(), admin.disconnect()]);
  });

  it('refuses a wrong password, and a client that does not trust the cluster CA', async () => {
    const wrong = clientFrom({
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: broker.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'admin',
      KAFKA_SASL_PASSWORD: 'not-the-password',
    }).admin({ retry: { retries: 0 } });
    await expect(wrong.connect()).rejects.toMatchObject({ name: 'KafkaJSSASLAuthenticationError' });
    const untrusting = clientFrom({
      KAFKA_TLS: 'true',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'admin',
      KAFKA_SASL_PASSWORD: users.admin,
    }).admin({ retry: { retries: 0 } });
    await expect(untrusting.connect()).rejects.toThrow(/certificate/i);
  });

  it('runs an app from the environment alone over TLS to Kafka (SCRAM) and to PostgreSQL (verify-full)', async () => {
    const postgres = new PrivatePostgres(19495, true);
    await postgres.start();
    // A port of its own: integration suites run side by side.
    const port = 19499;
    const database = `postgres://postgres@127.0.0.1:${postgres.port}/payments`;
    const app = spawnApp('pos-ingest', {
      PORT: String(port),
      DATABASE_URL: `${database}?sslmode=verify-full&sslrootcert=${encodeURIComponent(postgres.caFile)}`,
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: broker.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'admin',
      KAFKA_SASL_PASSWORD_FILE: passwordFile(users.admin),
    });
    try {
      await waitForReady(port, app);
      // The server takes TCP over TLS only; the app's own connections say they use it.
      const client = new Client({ connectionString: database, ssl: { ca: readFileSync(postgres.caFile, 'utf8') } });
      await client.connect();
      const { rows } = await client.query<{ ssl: boolean }>(
        `SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'pos_ingest'`,
      );
      await client.end();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.ssl)).toBe(true);
      await expect(new Client({ connectionString: database, ssl: false }).connect()).rejects.toThrow(/no encryption/);
    } finally {
      app.process.kill('SIGTERM');
      await app.exited;
      await postgres.destroy();
    }
  });
});
