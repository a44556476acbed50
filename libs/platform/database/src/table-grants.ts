/**
 * What an app's role may do to one table. `UPDATE (a, b)` lets it set those columns only: the
 * rest of the row (an amount, a key, a hash) stays as it was written. SELECT ... FOR UPDATE
 * takes UPDATE on at least one column, so a table the code only locks needs it too.
 */
export type TablePrivilege = 'SELECT' | 'INSERT' | 'DELETE' | 'UPDATE' | `UPDATE (${string})`;

/**
 * An app's grants, table by table, as its code uses its schema. A table without an entry is
 * refused everything, so a migration that adds a table adds its entry here in the same change.
 */
export type TableGrants = Readonly<Record<string, readonly TablePrivilege[]>>;

/** The table TypeORM records applied migrations in (postgresOptions). */
export const migrationsTable = 'migrations';

/**
 * Every table of an app's schema with its grants: the app's own, and the migrations table,
 * which the app may read but never change (migrations run as the schema's owner).
 */
export function schemaGrants(appGrants: TableGrants): TableGrants {
  return { ...appGrants, [migrationsTable]: ['SELECT'] };
}

/** A name this code quotes into statements: lower case, digits and underscores. */
const identifier = /^[a-z_][a-z0-9_]{0,62}$/;
const privilegePattern = /^(SELECT|INSERT|DELETE|UPDATE)(?: \(([a-z_][a-z0-9_]*(?:, [a-z_][a-z0-9_]*)*)\))?$/;

/** `privilege` as SQL, its columns quoted; throws on anything but a privilege the type allows. */
export function privilegeSql(privilege: string): string {
  const match = privilegePattern.exec(privilege);
  if (!match || (match[2] && match[1] !== 'UPDATE')) throw new Error(`not a table privilege: ${privilege}`);
  const [, action, columns] = match;
  if (!columns) return action;
  return `${action} (${columns
    .split(', ')
    .map((column) => `"${column}"`)
    .join(', ')})`;
}

/** Throws unless `name` is a plain identifier; `what` names it in the message. */
export function plainIdentifier(name: string, what: string): string {
  if (!identifier.test(name)) throw new Error(`${what} must be a plain lower-case name, not ${name}`);
  return name;
}
