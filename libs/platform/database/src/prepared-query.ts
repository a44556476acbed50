import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * One statement on a hot path, as a named prepared statement straight on the pool: each
 * connection parses and plans it once, and no query runner is set up around it. Errors are the
 * driver's own (`code`, `message`, `detail`). For everything else, use the data source.
 */
export async function preparedQuery<Row>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  return (await pool.query({ name, text, values })).rows as Row[];
}
