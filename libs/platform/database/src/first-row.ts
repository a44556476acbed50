/** What runs a statement: a data source, or an entity manager inside a transaction. */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * The first row a statement returns, typed as the caller's row type, or undefined when it
 * returns none: for lookups by key and for `RETURNING` of a single row.
 */
export async function firstRow<Row>(runner: Queryable, sql: string, parameters?: unknown[]): Promise<Row | undefined> {
  const rows = (await runner.query(sql, parameters)) as Row[];
  return rows[0];
}

/** The one row a statement always returns (an aggregate, an `INSERT … RETURNING`); throws if none came back. */
export async function singleRow<Row>(runner: Queryable, sql: string, parameters?: unknown[]): Promise<Row> {
  const row = await firstRow<Row>(runner, sql, parameters);
  if (row === undefined) throw new Error(`Expected a row from: ${sql.trim().split('\n')[0].trim()}`);
  return row;
}
