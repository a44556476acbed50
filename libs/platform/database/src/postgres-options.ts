import { DataSourceOptions, MixedList } from 'typeorm';

/** What an app owns in PostgreSQL: its schema, its entities, its committed migrations. */
export interface AppDatabase {
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
}

export function postgresOptions(url: string, poolSize: number, database: AppDatabase): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    schema: database.schema,
    entities: database.entities,
    migrations: database.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    // Money is bigint kobo: pg would hand us strings; entities convert explicitly.
    parseInt8: false,
    poolSize,
    applicationName: database.schema,
    extra: { connectionTimeoutMillis: 5000 },
  };
}
