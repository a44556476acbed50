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
  /** Rows the apps changed between each read and write, every time: left for another run. */
  changedMeanwhile: number;
}

const batchSize = 500;
/** Reads of a row an app keeps changing before it is left for another run. */
const attemptsPerRow = 5;

/** A value, or a jsonb array's entries, sealed again where under an older key. */
interface Resealing {
  /** What to write, or null when nothing in it is under an older key that opens. */
  next: string | null;
  examined: number;
  resealed: number;
  unopenable: number;
}

/**
 * Seals again, under its ring's current key, every value of `sealed` that is under an older key,
 * so that the older key can leave the ring. Each row is written only if it still holds what was
 * read; a row an app changed meanwhile is read again and retried, so it runs beside the apps and
 * nothing an app wrote is lost. Run twice, the second run finds nothing to do.
 */
export async function resealColumn(dataSource: DataSource, sealed: SealedColumn): Promise<ResealCount> {
  const quote = (name: string, what: string) => `"${plainIdentifier(name, what)}"`;
  const table = `${quote(sealed.schema, 'the schema')}.${quote(sealed.table, 'a table')}`;
  const keys = sealed.key.map((name) => quote(name, 'a key column'));
  const column = quote(sealed.column, 'the sealed column');
  const boundTo = quote(sealed.boundTo, 'the column a seal is bound to');
  const keyList = keys.join(', ');
  const cast = sealed.arrayField ? '::jsonb' : '';
  const selected = `${keyList}, ${column} AS sealed_value, ${boundTo}::text AS bound_to`;
  const count: ResealCount = { examined: 0, resealed: 0, unopenable: 0, changedMeanwhile: 0 };
  /** The row's key, its values the parameters from $`first` on. */
  const rowKeyFrom = (first: number) => keys.map((name, index) => `${name} = $${index + first}`).join(' AND ');

  const resealRow = async (row: Record<string, unknown>): Promise<void> => {
    const keyValues = sealed.key.map((name) => row[name]);
    let current = row.sealed_value;
    for (let attempt = 1; ; attempt++) {
      const resealing = resealValue(sealed, current, row.bound_to as string);
      if (resealing.next !== null) {
        const [, written] = (await dataSource.query(
          `UPDATE ${table} SET ${column} = $1${cast} WHERE ${column} = $2${cast} AND ${rowKeyFrom(3)}`,
          [resealing.next, sealed.arrayField ? JSON.stringify(current) : current, ...keyValues],
        )) as [unknown, number];
        if (written !== 1) {
          if (attempt === attemptsPerRow) {
            count.examined += resealing.examined;
            count.changedMeanwhile += 1;
            return;
          }
          // Changed by an app since it was read: read it again.
          const [again] = (await dataSource.query(
            `SELECT ${selected} FROM ${table} WHERE ${rowKeyFrom(1)}`,
            keyValues,
          )) as Record<string, unknown>[];
          if (!again || again.sealed_value === null) return;
          current = again.sealed_value;
          continue;
        }
        count.resealed += resealing.resealed;
      }
      count.examined += resealing.examined;
      count.unopenable += resealing.unopenable;
      return;
    }
  };

  let after: unknown[] | null = null;
  for (;;) {
    const placeholders = keys.map((_, index) => `$${index + 1}`).join(', ');
    const rows: Record<string, unknown>[] = await dataSource.query(
      `SELECT ${selected} FROM ${table}
        WHERE ${column} IS NOT NULL ${after ? `AND (${keyList}) > (${placeholders})` : ''}
        ORDER BY ${keyList} LIMIT ${batchSize}`,
      after ?? [],
    );
    for (const row of rows) await resealRow(row);
    if (rows.length < batchSize) return count;
    after = sealed.key.map((name) => rows[rows.length - 1][name]);
  }
}

/** `value` (a sealed value, or a jsonb array of entries holding one) sealed again where under an older key. */
function resealValue(sealed: SealedColumn, value: unknown, boundTo: string): Resealing {
  const resealing: Resealing = { next: null, examined: 0, resealed: 0, unopenable: 0 };
  const again = (text: string): string | null => {
    resealing.examined += 1;
    if (!sealed.sealer.isStale(text)) return null;
    try {
      const next = sealed.sealer.seal(sealed.sealer.open(text, boundTo), boundTo);
      resealing.resealed += 1;
      return next;
    } catch {
      resealing.unopenable += 1;
      return null;
    }
  };
  const field = sealed.arrayField;
  if (!field) {
    resealing.next = again(value as string);
    return resealing;
  }
  const entries = (value as Record<string, unknown>[]).map((entry) => {
    const next = typeof entry[field] === 'string' ? again(entry[field]) : null;
    return next === null ? entry : { ...entry, [field]: next };
  });
  if (resealing.resealed > 0) resealing.next = JSON.stringify(entries);
  return resealing;
}
