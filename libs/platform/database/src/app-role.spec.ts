import { appRoleStatements } from './app-role';
import { privilegeSql } from './table-grants';

describe('appRoleStatements', () => {
  const statements = appRoleStatements('ledger', 'ledger_app', {
    journal: ['SELECT', 'INSERT'],
    commands: ['SELECT', 'INSERT', 'UPDATE (result)'],
    holds: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  });

  it('takes back everything granted before, default privileges too, before it grants', () => {
    expect(statements.slice(0, 6)).toEqual([
      'REVOKE ALL ON ALL TABLES IN SCHEMA "ledger" FROM "ledger_app"',
      'REVOKE ALL ON ALL SEQUENCES IN SCHEMA "ledger" FROM "ledger_app"',
      'REVOKE ALL ON ALL FUNCTIONS IN SCHEMA "ledger" FROM "ledger_app"',
      'ALTER DEFAULT PRIVILEGES IN SCHEMA "ledger" REVOKE ALL ON TABLES FROM "ledger_app"',
      'ALTER DEFAULT PRIVILEGES IN SCHEMA "ledger" REVOKE ALL ON SEQUENCES FROM "ledger_app"',
      'ALTER DEFAULT PRIVILEGES IN SCHEMA "ledger" REVOKE ALL ON FUNCTIONS FROM "ledger_app"',
    ]);
    expect(
      statements.filter((statement) => statement.includes('DEFAULT PRIVILEGES') && statement.includes('GRANT')),
    ).toEqual([]);
  });

  it('grants each table what its entry names, UPDATE of named columns only where it says so', () => {
    expect(statements).toEqual(
      expect.arrayContaining([
        'GRANT USAGE ON SCHEMA "ledger" TO "ledger_app"',
        'GRANT SELECT, INSERT ON "ledger"."journal" TO "ledger_app"',
        'GRANT SELECT, INSERT, UPDATE ("result") ON "ledger"."commands" TO "ledger_app"',
        'GRANT SELECT, INSERT, UPDATE, DELETE ON "ledger"."holds" TO "ledger_app"',
      ]),
    );
  });

  it('lets the role read the migrations table and change nothing in it', () => {
    expect(statements).toContain('GRANT SELECT ON "ledger"."migrations" TO "ledger_app"');
  });

  it('lets sequences be drawn from and read, never set', () => {
    expect(statements).toContain('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "ledger" TO "ledger_app"');
    expect(statements.filter((statement) => /SEQUENCES.* TO /.test(statement))).toHaveLength(1);
  });

  it('refuses a role, schema, table or column it would have to quote', () => {
    expect(() => appRoleStatements('ledger', 'App"; DROP', {})).toThrow(/DATABASE_APP_ROLE/);
    expect(() => appRoleStatements('Ledger', 'ledger_app', {})).toThrow(/schema/);
    expect(() => appRoleStatements('ledger', 'ledger_app', { 'a"b': ['SELECT'] })).toThrow(/table/);
    expect(() => privilegeSql('UPDATE (result"; DROP)')).toThrow(/not a table privilege/);
  });

  it('refuses an entry that grants nothing, and column lists on anything but UPDATE', () => {
    expect(() => appRoleStatements('ledger', 'ledger_app', { journal: [] })).toThrow(/empty/);
    expect(() => privilegeSql('DELETE (result)')).toThrow(/not a table privilege/);
    expect(() => privilegeSql('TRUNCATE')).toThrow(/not a table privilege/);
  });
});
