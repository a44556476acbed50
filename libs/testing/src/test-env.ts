import { randomBytes, randomUUID } from 'node:crypto';

/** The environment integration tests run apps with: the real database and broker `npm test` prepared. */
export function testEnvironment(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/payments_test',
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
    API_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
    POS_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
    PAGE_CURSOR_KEY: randomBytes(32).toString('base64'),
    MEMBER_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    CARD_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
    CARD_DATA_KEY: randomBytes(32).toString('base64'),
    POS_REFERENCE_KEY: randomBytes(32).toString('base64'),
    OUTBOX_POLL_INTERVAL_MS: '200',
    // Tests run as a developer's machine does: sandbox receivers on this machine are allowed.
    WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true',
    ...overrides,
  };
}

/** A name no other test run uses: topics, consumer groups, schemas. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One statement on the test database, for end-to-end tests that move time or inspect tables. */
export async function queryTestDatabase<T = Record<string, unknown>>(
  statement: string,
  params: unknown[] = [],
): Promise<T[]> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: testEnvironment().DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(statement, params)).rows as T[];
  } finally {
    await client.end();
  }
}
