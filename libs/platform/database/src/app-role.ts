import { QueryRunner } from 'typeorm';

/** A PostgreSQL role name this code will quote into statements: lower case, digits and underscores. */
const roleName = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Lets `role` (the login an app runs as) use its own schema and nothing more: read and write
 * its tables, use its sequences, call its functions; no DDL, and no other app's schema. Run by
 * the owner that migrates the schema, after each migration, so tables added later are covered
 * too (and by default privileges, for objects the owner creates by other means).
 */
export async function grantSchemaToAppRole(runner: QueryRunner, schema: string, role: string): Promise<void> {
  if (!roleName.test(role)) throw new Error(`DATABASE_APP_ROLE must be a plain lower-case role name, not ${role}`);
  const on = `IN SCHEMA "${schema}"`;
  const statements = [
    `GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES ${on} TO "${role}"`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES ${on} TO "${role}"`,
    `GRANT EXECUTE ON ALL FUNCTIONS ${on} TO "${role}"`,
    `ALTER DEFAULT PRIVILEGES ${on} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO "${role}"`,
    `ALTER DEFAULT PRIVILEGES ${on} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO "${role}"`,
    `ALTER DEFAULT PRIVILEGES ${on} GRANT EXECUTE ON FUNCTIONS TO "${role}"`,
  ];
  for (const statement of statements) await runner.query(statement);
}
