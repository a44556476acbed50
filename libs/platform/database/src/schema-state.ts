import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { migrationsTable } from './table-grants';

/**
 * Whether the app's schema has every migration the app ships. A release's migrations run in a
 * Job of their own while its pods start, so a pod of the new release serves only once they ran
 * (its readiness waits on this). Once the schema is seen current it stays so: a schema only
 * moves forward, and later releases' migrations are the old release's to live with.
 */
@Injectable()
export class SchemaState {
  private current = false;

  constructor(private readonly dataSource: DataSource) {}

  /** The migrations this app ships that its schema lacks, by name; none once seen current. */
  async missingMigrations(): Promise<string[]> {
    if (this.current) return [];
    const shipped = this.dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
    const { schema = 'public' } = this.dataSource.options as { schema?: string };
    const applied = await this.dataSource
      .query<{ name: string }[]>(
        `SELECT name FROM ${this.dataSource.driver.escape(schema)}.${this.dataSource.driver.escape(migrationsTable)}`,
      )
      .catch((error: { code?: string }) => {
        if (error.code === '42P01') return []; // no migrations table: nothing has run yet
        throw error;
      });
    const names = new Set(applied.map((row) => row.name));
    const missing = shipped.filter((name) => !names.has(name));
    this.current = missing.length === 0;
    return missing;
  }
}
