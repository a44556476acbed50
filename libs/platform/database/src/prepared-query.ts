import type { Pool } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * One statement on a hot path, as a named prepared statement straight on the pool: each
 * connection parses and plans it once, and no query runner is set up around it. A failure is a
 * QueryFailedError, as through the data source: the driver's `code`, `message` and `detail` on
 * it, and the values as `parameters`, which the log's error serializer knows to leave out.
 * For everything else, use the data source.
 */
export async function preparedQuery<Row>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  try {
    return (await pool.query({ name, text, values })).rows as Row[];
  } catch (error) {
    throw new QueryFailedError(text, values, error as Error);
  }
}
