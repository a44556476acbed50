import { DataSourceOptions, MixedList } from 'typeorm';

import { migrationsTable, TableGrants } from './table-grants';

/** What an app owns in PostgreSQL: its schema, its entities, its committed migrations, its role's grants. */
export interface AppDatabase {
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
  /** What the app's role may do to each table of the schema (the migrations table aside). */
  grants: TableGrants;
}

/** The DataSource options of `database`: what TypeORM needs of it (grants are migrate's). */
export function postgresOptions(
  url: string,
  poolSize: number,
  database: Omit<AppDatabase, 'grants'>,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    schema: database.schema,
    entities: database.entities,
    migrations: database.migrations,
    migrationsTableName: migrationsTable,
    synchronize: false,
    migrationsRun: false,
    // Money is bigint kobo: pg would hand us strings; entities convert explicitly.
    parseInt8: false,
    poolSize,
    applicationName: database.schema,
    extra: { connectionTimeoutMillis: 5000 },
  };
}
