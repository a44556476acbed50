import type { Sealer } from '@payments/platform-crypto';
import { DataSource } from 'typeorm';

import { plainIdentifier } from './table-grants';

/** A column of sealed values (docs/operations.md, "Rotating keys"), and what each seal is bound to. */
export interface SealedColumn {
  schema: string;
  table: string;
  /** The table's primary key: rows are walked in its order. */
  key: readonly string[];
  column: string;
  /** The column whose value each seal is bound to (its associated data). */
  boundTo: string;
  /** The ring the column's values are sealed under. */
  sealer: Sealer;
  /** For a jsonb array of objects: the field of each that holds a sealed value. */
  arrayField?: string;
}

export interface ResealCount {
  /** Values (array entries counted one by one) found sealed. */
  examined: number;
  /** Values sealed again under the ring's current key. */
  resealed: number;
  /** Values under a key the ring does not hold, or altered: left as they are, and to be looked into. */
  unopenable: number;
}

const batchSize = 500;

/**
 * Seals again, under its ring's current key, every value of `sealed` that is under an older key,
 * so that the older key can leave the ring. Each row is written only if it still holds what was
 * read (an app writing it meanwhile wrote under the current key already), so it runs beside the
 * apps; run twice, the second run finds nothing to do.
 */
export async function resealColumn(dataSource: DataSource, sealed: SealedColumn): Promise<ResealCount> {
  const quote = (name: string, what: string) => `"${plainIdentifier(name, what)}"`;
  const table = `${quote(sealed.schema, 'the schema')}.${quote(sealed.table, 'a table')}`;
  const keys = sealed.key.map((name) => quote(name, 'a key column'));
  const column = quote(sealed.column, 'the sealed column');
  const boundTo = quote(sealed.boundTo, 'the column a seal is bound to');
  const keyList = keys.join(', ');
  const count: ResealCount = { examined: 0, resealed: 0, unopenable: 0 };
  const again = (value: string, bound: string): string | null => {
    count.examined += 1;
    if (!sealed.sealer.isStale(value)) return null;
    try {
      return sealed.sealer.seal(sealed.sealer.open(value, bound), bound);
    } catch {
      count.unopenable += 1;
      return null;
    }
  };
  let after: unknown[] | null = null;
  for (;;) {
    const placeholders = keys.map((_, index) => `$${index + 1}`).join(', ');
    const rows: Record<string, unknown>[] = await dataSource.query(
      `SELECT ${keyList}, ${column} AS sealed_value, ${boundTo}::text AS bound_to FROM ${table}
        WHERE ${column} IS NOT NULL ${after ? `AND (${keyList}) > (${placeholders})` : ''}
        ORDER BY ${keyList} LIMIT ${batchSize}`,
      after ?? [],
    );
    for (const row of rows) {
      const bound = row.bound_to as string;
      const current = row.sealed_value;
      let next: string | null = null;
      let values = 1;
      if (sealed.arrayField) {
        const field = sealed.arrayField;
        values = 0;
        const entries = (current as Record<string, unknown>[]).map((entry) => {
          const resealed = typeof entry[field] === 'string' ? again(entry[field], bound) : null;
          if (resealed === null) return entry;
          values += 1;
          return { ...entry, [field]: resealed };
        });
        if (values > 0) next = JSON.stringify(entries);
      } else {
        next = again(current as string, bound);
      }
      if (next === null) continue;
      const keyValues = sealed.key.map((name) => row[name]);
      const where = keys.map((name, index) => `${name} = $${index + 3}`).join(' AND ');
      const cast = sealed.arrayField ? '::jsonb' : '';
      const [, written] = (await dataSource.query(
        `UPDATE ${table} SET ${column} = $1${cast} WHERE ${column} = $2${cast} AND ${where}`,
        [next, sealed.arrayField ? JSON.stringify(current) : current, ...keyValues],
      )) as [unknown, number];
      if (written === 1) count.resealed += values;
    }
    if (rows.length < batchSize) return count;
    after = sealed.key.map((name) => rows[rows.length - 1][name]);
  }
}
