import { BeforeApplicationShutdown, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';

import { APP_DATABASE } from './database.module';
import { AppDatabase } from './postgres-options';
import { migrationsTable, schemaGrants, TableGrants } from './table-grants';

const markPrefix = 'migrated through ';

/** The newest migration of a list, by the timestamp its name ends with. */
function newestOf(names: string[]): string | undefined {
  return [...names].sort((a, b) => timestampOf(a) - timestampOf(b)).at(-1);
}

/** A migration's timestamp: the 13 digits TypeORM ends its name with. */
const timestampOf = (name: string) => Number(/(\d{13})$/.exec(name)?.[1] ?? 0);

/**
 * Records on the schema, once a run's migrations and grants are done, the newest migration the
 * run shipped: each migration's row commits before the app's login is granted its tables, so
 * the rows alone would let a pod serve before its login may use them.
 */
export async function markMigrated(runner: QueryRunner, schema: string, shipped: string[]): Promise<void> {
  const newest = newestOf(shipped);
  if (!newest) return;
  // COMMENT takes no parameters; a migration's name is a class name, quoted all the same.
  await runner.query(`COMMENT ON SCHEMA "${schema}" IS '${`${markPrefix}${newest}`.replace(/'/g, "''")}'`);
}

/**
 * The privileges of `grants` the connected login lacks in `schema`, as "table: privilege".
 * What the login holds, not what a run recorded: a release that changes only the grants adds no
 * migration, and a rollback's pods need only their own release's grants, which a later run may
 * have widened.
 */
async function missingPrivileges(dataSource: DataSource, schema: string, grants: TableGrants): Promise<string[]> {
  type Wanted = { table: string; action: string; column: string | null };
  const wanted = Object.entries(schemaGrants(grants)).flatMap(([table, privileges]) =>
    privileges.flatMap((privilege): Wanted[] => {
      const [, action, columns] = /^(\w+)(?: \((.*)\))?$/.exec(privilege) ?? [];
      return columns
        ? columns.split(', ').map((column) => ({ table, action, column }))
        : [{ table, action, column: null }];
    }),
  );
  const rows = await dataSource.query<{ missing: string }[]>(
    `SELECT table_name || ': ' || action || coalesce(' (' || column_name || ')', '') AS missing
       FROM unnest($2::text[], $3::text[], $4::text[]) AS wanted(table_name, action, column_name)
      WHERE CASE WHEN to_regclass(format('%I.%I', $1::text, table_name)) IS NULL THEN true
                 WHEN column_name IS NULL THEN NOT has_table_privilege(format('%I.%I', $1::text, table_name), action)
                 ELSE NOT has_column_privilege(format('%I.%I', $1::text, table_name), column_name, action)
            END`,
    [schema, wanted.map((want) => want.table), wanted.map((want) => want.action), wanted.map((want) => want.column)],
  );
  return rows.map((row) => row.missing);
}

/**
 * Whether the app's schema has every migration the app ships, and its login the grants that
 * follow them. A release's migrations run in a Job of their own while its pods start, so a pod
 * of the new release serves only once they ran (its readiness waits on this). Once the schema
 * is seen current it stays so: a schema only moves forward, and later releases' migrations are
 * the old release's to live with.
 */
@Injectable()
export class SchemaState implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SchemaState.name);
  private current = false;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(APP_DATABASE) private readonly database?: AppDatabase,
  ) {}

  /** Before the consumers stop: a schema seen current during the drain starts none. */
  beforeApplicationShutdown(): void {
    this.stopped = true;
  }

  /**
   * Resolves once the schema is current, looking every 2 s: what the app's Kafka consumers wait
   * for, so that a pod of a new release handles no message before its migrations ran.
   */
  async untilCurrent(): Promise<void> {
    let said = 0;
    while (!this.stopped) {
      const behind = await this.behind().catch((error: Error) => `the schema could not be read: ${error.message}`);
      if (behind === null) {
        if (this.stopped) break;
        return;
      }
      if (Date.now() - said > 60_000) {
        this.logger.warn(`not consuming yet: ${behind}`);
        said = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 2000).unref());
    }
    throw new Error('stopped before the schema was current');
  }

  /** Why the schema is not yet the one this release ships, or null once it is. */
  async behind(): Promise<string | null> {
    if (this.current) return null;
    const { schema = 'public' } = this.dataSource.options as { schema?: string };
    const shipped = this.dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
    const applied = await this.dataSource
      .query<{ name: string }[]>(`SELECT name FROM "${schema}"."${migrationsTable}"`)
      .catch((error: { code?: string }) => {
        if (error.code === '42P01') return []; // no migrations table: nothing has run yet
        throw error;
      });
    const names = new Set(applied.map((row) => row.name));
    const missing = shipped.filter((name) => !names.has(name));
    if (missing.length > 0) return `${missing.length} migrations not applied yet, the first ${missing[0]}`;
    const [{ mark }] = await this.dataSource.query<{ mark: string | null }[]>(
      `SELECT obj_description(oid, 'pg_namespace') AS mark FROM pg_namespace WHERE nspname = $1`,
      [schema],
    );
    // Releases before this one added " granting <digest>" after the migration's name.
    const through = mark?.startsWith(markPrefix) ? mark.slice(markPrefix.length).split(' ')[0] : '';
    if (timestampOf(through) < timestampOf(newestOf(shipped) ?? '')) {
      return 'migrated, but its run has not finished granting the app its tables';
    }
    const missingGrants = this.database ? await missingPrivileges(this.dataSource, schema, this.database.grants) : [];
    if (missingGrants.length > 0) {
      return `the app's login is not yet granted ${missingGrants.length} of its privileges, the first ${missingGrants[0]}`;
    }
    this.current = true;
    return null;
  }
}
