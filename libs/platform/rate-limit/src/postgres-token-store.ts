import { DataSource } from 'typeorm';

import { TokenGrant, TokenRequest, TokenStore } from './rate-limiter';

/**
 * The tables of an app's rate limits, in its own schema (the app's role needs nothing more).
 * Windows are UNLOGGED: counts that a crash or a failover loses cost one window of leniency,
 * and no WAL is written for them. Overrides are an operator's decisions, and are logged.
 * Frozen as the migration that first ran it; a change is a new function.
 */
export function rateLimitTablesV1(schema: string): string[] {
  return [
    `CREATE UNLOGGED TABLE "${schema}"."rate_limit_windows" (
      "key" text NOT NULL,
      "window_start" timestamptz NOT NULL,
      "expires_at" timestamptz NOT NULL,
      "used" integer NOT NULL,
      "granted" integer NOT NULL,
      PRIMARY KEY ("key", "window_start")
    )`,
    `CREATE INDEX "rate_limit_windows_expires_idx" ON "${schema}"."rate_limit_windows" ("expires_at")`,
    `CREATE TABLE "${schema}"."rate_limit_overrides" (
      "business_id" text NOT NULL,
      "policy" text NOT NULL,
      "quota" integer NOT NULL CHECK ("quota" > 0),
      "window_seconds" integer NOT NULL CHECK ("window_seconds" > 0),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("business_id", "policy")
    )`,
  ];
}

export function dropRateLimitTablesV1(schema: string): string[] {
  return [`DROP TABLE "${schema}"."rate_limit_overrides"`, `DROP TABLE "${schema}"."rate_limit_windows"`];
}

/**
 * Windows counted in PostgreSQL, which every instance already reaches. One statement takes a
 * grant: under the row's lock it adds to `used` at most a quarter of what the window has left
 * (so the last requests of a window are not all held by one instance), and `granted` keeps
 * that amount for RETURNING, which sees only the row as written.
 */
export class PostgresTokenStore implements TokenStore {
  private readonly takeSql: string;
  private readonly sweepSql: string;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
  ) {
    const grantOf = (used: string) => `LEAST($5::int, CEIL(GREATEST($4::int - ${used}, 0) / 4.0)::int)`;
    this.takeSql = `
      INSERT INTO "${schema}"."rate_limit_windows" AS w ("key", "window_start", "expires_at", "used", "granted")
      VALUES ($1, $2, $3, ${grantOf('0')}, ${grantOf('0')})
      ON CONFLICT ("key", "window_start") DO UPDATE
        SET "used" = w."used" + ${grantOf('w."used"')}, "granted" = ${grantOf('w."used"')}
      RETURNING "used", "granted"`;
    // Also a window still open whose key is an API key in clear: the form releases before
    // partner-api counted by key id wrote, which an instance of one may write during a rollout.
    this.sweepSql = `DELETE FROM "${schema}"."rate_limit_windows"
      WHERE "expires_at" < now() - interval '1 minute' OR "key" ~ '^partner-api:[ps]k_'`;
  }

  async take(request: TokenRequest): Promise<TokenGrant> {
    const rows: { used: number; granted: number }[] = await this.dataSource.query(this.takeSql, [
      request.key,
      request.windowStart,
      request.windowEnd,
      request.quota,
      request.want,
    ]);
    return { used: rows[0].used, granted: rows[0].granted };
  }

  /** Forgets windows that have ended (kept a minute longer, for a clock a little behind), and keys that must not be kept. */
  async sweep(): Promise<void> {
    await this.dataSource.query(this.sweepSql);
  }
}
