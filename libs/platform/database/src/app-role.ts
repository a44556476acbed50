import { QueryRunner } from 'typeorm';

import { plainIdentifier, privilegeSql, schemaGrants, TableGrants } from './table-grants';

/**
 * The statements that give `role` (the login an app runs as) its schema as `grants` describe
 * it, and nothing more. Everything granted before is taken back first, default privileges too
 * (earlier releases granted every table in full): a run on an older database tightens it.
 * Sequences: nextval and currval only; no setval, which could hand out a used number again.
 * Functions run with the caller's rights, so EXECUTE reaches no table the grants do not.
 */
export function appRoleStatements(schema: string, role: string, grants: TableGrants): string[] {
  plainIdentifier(role, 'DATABASE_APP_ROLE');
  const on = `IN SCHEMA "${plainIdentifier(schema, 'the schema')}"`;
  const to = `"${role}"`;
  const tables = Object.entries(schemaGrants(grants)).map(([table, privileges]) => {
    const sql = [...new Set(privileges)].map(privilegeSql);
    if (sql.length === 0) throw new Error(`the grants of ${schema}.${table} are empty: leave the table out instead`);
    return `GRANT ${sql.join(', ')} ON "${schema}"."${plainIdentifier(table, 'a table')}" TO ${to}`;
  });
  return [
    `REVOKE ALL ON ALL TABLES ${on} FROM ${to}`,
    `REVOKE ALL ON ALL SEQUENCES ${on} FROM ${to}`,
    `REVOKE ALL ON ALL FUNCTIONS ${on} FROM ${to}`,
    `ALTER DEFAULT PRIVILEGES ${on} REVOKE ALL ON TABLES FROM ${to}`,
    `ALTER DEFAULT PRIVILEGES ${on} REVOKE ALL ON SEQUENCES FROM ${to}`,
    `ALTER DEFAULT PRIVILEGES ${on} REVOKE ALL ON FUNCTIONS FROM ${to}`,
    `GRANT USAGE ON SCHEMA "${schema}" TO ${to}`,
    ...tables,
    `GRANT USAGE, SELECT ON ALL SEQUENCES ${on} TO ${to}`,
    `GRANT EXECUTE ON ALL FUNCTIONS ${on} TO ${to}`,
  ];
}

/**
 * Lets `role` use its own schema as `grants` say, and no other schema; no DDL. Run by the owner
 * that migrates the schema, after each migration run, so a table a migration adds gets its
 * entry's grants, and a table without one gets nothing. One transaction: an app already
 * running as the role never sees its grants half taken back.
 */
export async function grantSchemaToAppRole(
  runner: QueryRunner,
  schema: string,
  role: string,
  grants: TableGrants,
): Promise<void> {
  const statements = appRoleStatements(schema, role, grants);
  await runner.startTransaction();
  try {
    for (const statement of statements) await runner.query(statement);
    await runner.commitTransaction();
  } catch (error) {
    await runner.rollbackTransaction();
    // 42P01: an entry for a table the migrations did not make (or dropped).
    if ((error as { code?: string }).code === '42P01') {
      throw new Error(`the table grants of ${schema} name a table it does not have: ${(error as Error).message}`);
    }
    throw error;
  }
}
