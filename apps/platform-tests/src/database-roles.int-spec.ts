import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { PartnerCredentials, TransactionResponse } from '@payments/contracts';
import { AppDatabase, postgresOptions, schemaGrants, SealedColumn, TableGrants } from '@payments/platform-database';
import { outboxEntities, OutboxRelay } from '@payments/platform-outbox';
import { eventually, testEnvironment, uniqueName } from '@payments/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { allApps, AppName, nodeScriptSync, repoRoot, startApps, stopApps } from './apps';
import { callGateway, createCheckout } from './partners';

jest.setTimeout(240_000);

/** What releases before per-table grants gave every app role: every table in full, and default privileges. */
const earlierGrants = (schema: string, role: string) => [
  `GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`,
  `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO "${role}"`,
  `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA "${schema}" TO "${role}"`,
  `ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO "${role}"`,
  `ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO "${role}"`,
];

/** `privileges` as rows of information_schema: table-wide ones, and each column of an `UPDATE (…)`. */
function expectedPrivileges(grants: TableGrants): string[] {
  return Object.entries(schemaGrants(grants)).flatMap(([table, privileges]) =>
    privileges.map((privilege) => {
      const [, action, columns] = /^(\w+)(?: \((.*)\))?$/.exec(privilege)!;
      return columns ? `${table} ${action} (${columns})` : `${table} ${action}`;
    }),
  );
}

/** Each app runs as a login of its own that may do to its own tables what its code does, and no more. */
describe('least privilege in PostgreSQL', () => {
  const server = new URL(testEnvironment().DATABASE_URL!);
  const database = uniqueName('payments_roles');
  const roles = Object.fromEntries(allApps.map((app) => [app, uniqueName(app.replace('-', '_'))])) as Record<
    AppName,
    string
  >;
  const urlAs = (user: string) => {
    const url = new URL(server);
    url.username = user;
    url.pathname = `/${database}`;
    return url.toString();
  };
  const owner = urlAs(server.username || 'postgres');
  const onServer = async <T>(url: string, work: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const maintenance = () => {
    const url = new URL(server);
    url.pathname = '/postgres';
    return url.toString();
  };
  const migrate = (app: AppName, role?: string) => {
    const env: Record<string, string> = role
      ? { DATABASE_URL: owner, DATABASE_APP_ROLE: role }
      : { DATABASE_URL: owner };
    const result = nodeScriptSync('tools/runtime/migrate.cjs', env, [app]);
    if (result.status !== 0) throw new Error(`migrating ${app} failed: ${result.stderr}`);
  };
  /** 'allowed', or the SQLSTATE `statement` failed with as `app`'s role (42501: permission denied). */
  /** Each app's database as its build declares it: schema and grants, as `npm run migrate` reads them. */
  const databases = {} as Record<AppName, AppDatabase>;
  const databaseOf = (app: AppName) => databases[app];
  const as = (app: AppName, statement: string) =>
    onServer(urlAs(roles[app]), (client) => client.query(statement)).then(
      () => 'allowed',
      (error: { code?: string }) => error.code,
    );

  beforeAll(async () => {
    for (const app of allApps) {
      const built = join(repoRoot, 'dist/apps', app, 'src/database/data-source.js');
      databases[app] = ((await import(built)) as { database: AppDatabase }).database;
    }
    await onServer(maintenance(), async (client) => {
      for (const role of Object.values(roles)) await client.query(`CREATE ROLE "${role}" LOGIN`);
    });
    // A database an earlier release migrated and granted in full; this release's migration run tightens it.
    for (const app of allApps) migrate(app);
    await onServer(owner, async (client) => {
      for (const app of allApps) {
        for (const statement of earlierGrants(databaseOf(app).schema, roles[app])) await client.query(statement);
      }
    });
    for (const app of allApps) migrate(app, roles[app]);
  });

  afterAll(async () => {
    await onServer(maintenance(), async (client) => {
      await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      for (const role of Object.values(roles)) await client.query(`DROP ROLE IF EXISTS "${role}"`);
    });
  });

  it('has grants for every table each app migrates, and no grants for a table it does not have', async () => {
    for (const app of allApps) {
      const { schema, grants } = databaseOf(app);
      const tables = await onServer(owner, (client) =>
        client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = $1`, [schema]),
      );
      // A table missing here gets nothing: add it to apps/<app>/src/database/table-grants.ts.
      expect([app, tables.rows.map((row) => row.name).sort()]).toEqual([app, Object.keys(schemaGrants(grants)).sort()]);
    }
  });

  it('gives each role exactly its grants, whatever an earlier release granted', async () => {
    for (const app of allApps) {
      const { schema, grants } = databaseOf(app);
      const held = await onServer(owner, (client) =>
        client.query<{ privilege: string }>(
          `SELECT table_name || ' ' || privilege_type AS privilege FROM information_schema.table_privileges
             WHERE table_schema = $1 AND grantee = $2
           UNION ALL
           SELECT table_name || ' UPDATE (' || string_agg(column_name, ', ' ORDER BY column_name) || ')'
             FROM information_schema.column_privileges c
             WHERE table_schema = $1 AND grantee = $2 AND privilege_type = 'UPDATE' AND NOT EXISTS (
               SELECT 1 FROM information_schema.table_privileges t WHERE t.table_schema = $1 AND t.grantee = $2
                 AND t.table_name = c.table_name AND t.privilege_type = 'UPDATE')
             GROUP BY table_name`,
          [schema, roles[app]],
        ),
      );
      const sortColumns = (row: string) =>
        row.replace(/\((.*)\)/, (_, list: string) => `(${list.split(', ').sort().join(', ')})`);
      expect([app, held.rows.map((row) => sortColumns(row.privilege)).sort()]).toEqual([
        app,
        expectedPrivileges(grants).map(sortColumns).sort(),
      ]);
    }
  });

  it('refuses every role what would undo money or history: migrations, sequences, and a table added without grants', async () => {
    for (const app of allApps) {
      const { schema } = databaseOf(app);
      expect([app, await as(app, `DELETE FROM ${schema}.migrations`)]).toEqual([app, '42501']);
      expect([app, await as(app, `UPDATE ${schema}.migrations SET name = name`)]).toEqual([app, '42501']);
      expect([app, await as(app, `SELECT setval('${schema}.outbox_sequence_seq', 1)`)]).toEqual([app, '42501']);
      expect([app, await as(app, `UPDATE ${schema}.outbox SET payload = payload`)]).toEqual([app, '42501']);
      expect([app, await as(app, `TRUNCATE ${schema}.outbox`)]).toEqual([app, '42501']);
      expect([app, await as(app, `SELECT nextval('${schema}.outbox_sequence_seq')`)]).toEqual([app, 'allowed']);
      expect([app, await as(app, `CREATE TABLE ${schema}.intruder (id int)`)]).toEqual([app, '42501']);
    }
    // No default privileges remain: a table the owner adds later is the role's only once granted.
    await onServer(owner, (client) => client.query('CREATE TABLE outlets.added_later (id int)'));
    try {
      expect(await as('outlet-service', 'SELECT * FROM outlets.added_later')).toBe('42501');
    } finally {
      await onServer(owner, (client) => client.query('DROP TABLE outlets.added_later'));
    }
  });

  it("refuses outlet-service's role any change to the ledger, and freeing a money command's reference", async () => {
    const refused = [
      'DELETE FROM outlets.money_commands',
      `UPDATE outlets.money_commands SET request_hash = 'x'`,
      'UPDATE outlets.journal_entries SET narration = narration',
      'DELETE FROM outlets.journal_entries',
      'UPDATE outlets.postings SET amount = amount',
      'DELETE FROM outlets.postings',
      'DELETE FROM outlets.price_plans',
      'UPDATE outlets.wallets SET business_id = business_id',
      'DELETE FROM outlets.wallets',
      `UPDATE outlets.checkout_outcomes SET status = status`,
      'DELETE FROM outlets.refunds',
      'UPDATE outlets.payouts SET amount = amount',
      `SELECT setval('outlets.account_number_seq', 1)`,
    ];
    for (const statement of refused) {
      expect([statement, await as('outlet-service', statement)]).toEqual([statement, '42501']);
    }
    expect(await as('outlet-service', 'UPDATE outlets.money_commands SET result = result')).toBe('allowed');
  });

  it('refuses the other roles what would rewrite a payment, a key or an audit', async () => {
    const refused: [AppName, string][] = [
      ['checkout-gateway', 'DELETE FROM gateway.idempotency_keys'],
      ['checkout-gateway', 'UPDATE gateway.checkouts SET amount = amount'],
      ['checkout-gateway', 'UPDATE gateway.business_keys SET api_secret_hash = api_secret_hash'],
      ['checkout-gateway', 'DELETE FROM gateway.key_audit'],
      ['checkout-gateway', 'SELECT count(*) FROM outlets.wallets'],
      ['card-processor', 'UPDATE card_processor.card_charges SET amount = amount'],
      ['card-processor', 'DELETE FROM card_processor.card_charges'],
      ['card-processor', 'DELETE FROM card_processor.pos_authorisations'],
      ['pos-ingest', 'DELETE FROM pos_ingest.integrators'],
      ['webhook-dispatcher', 'DELETE FROM webhooks.attempts'],
      ['webhook-dispatcher', 'DELETE FROM webhooks.deliveries'],
    ];
    for (const [app, statement] of refused) expect([statement, await as(app, statement)]).toEqual([statement, '42501']);
  });

  it('lets each role seal again what its app keeps sealed, so that keys:reseal runs in its own pods', async () => {
    const checked: string[] = [];
    for (const app of allApps) {
      const file = join(repoRoot, 'dist/apps', app, 'src/database/sealed-columns.js');
      if (!existsSync(file)) continue;
      const { sealedColumns } = (await import(file)) as { sealedColumns: (env: object) => SealedColumn[] };
      for (const column of sealedColumns(testEnvironment())) {
        const table = `${column.schema}.${column.table}`;
        const where = [...column.key, column.boundTo].map((name) => `${name} IS NULL`).join(' AND ');
        const statement = `UPDATE ${table} SET ${column.column} = ${column.column} WHERE ${where}`;
        expect([app, statement, await as(app, statement)]).toEqual([app, statement, 'allowed']);
        checked.push(`${table}.${column.column}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining(['gateway.business_keys.api_key_sealed', 'pos_ingest.integrators.pos_key_sealed']),
    );
  });

  it('lets every role prune its sent outbox rows and old dedupe records, as its relay does', async () => {
    for (const app of allApps) {
      const { schema } = databaseOf(app);
      const dataSource = await new DataSource(
        postgresOptions(urlAs(roles[app]), 2, { schema, entities: outboxEntities, migrations: [] }),
      ).initialize();
      try {
        const relay = new OutboxRelay(dataSource, undefined as never, {} as never);
        await expect(relay.prune({ sentHours: 1, processedHours: 1 })).resolves.toBe(0);
      } finally {
        await dataSource.destroy();
      }
    }
  });

  it('runs every app as its role: a partner onboarded from the gateway pod is paid by card, and the payment is listed', async () => {
    const asPod = (app: AppName) => ({ DATABASE_URL: urlAs(roles[app]), MIGRATE_ON_START: 'false' });
    const apps = await startApps(allApps, Object.fromEntries(allApps.map((app) => [app, asPod(app)])));
    try {
      // As `kubectl exec deploy/checkout-gateway -- payments partner-create` runs it: the pod's
      // login, and no migrations (the release's Job ran them).
      const created = nodeScriptSync(
        'dist/apps/checkout-gateway/src/cli/partner-create.js',
        asPod('checkout-gateway'),
        ['--name', 'Least Privilege Ltd', '--json'],
      );
      expect(created.status === 0 ? 'created' : created.stderr).toBe('created');
      const partner = JSON.parse(created.stdout) as PartnerCredentials;
      // Onboarding reaches outlet-service over Kafka: a transfer checkout then gets its account.
      const probe = await createCheckout(partner, ['pay-with-transfer'], '10000', 'Onboarding probe');
      await eventually(async () => {
        const answer = await callGateway(partner, 'POST', `/checkout/${probe}/pay-with-transfer`);
        return answer.status === 200 ? true : undefined;
      }, 60_000);
      const reference = await createCheckout(partner, ['card'], '150000', 'Least Privilege Shop');
      const paid = await callGateway(partner, 'POST', `/checkout/${reference}/card-payment`, {
        cardNumber: '5060990000000000019',
        expiryDate: '12/30',
        cvv: '123',
      });
      expect(paid.body.data).toMatchObject({ transactionStatus: 'SUCCESS' });
      // The gateway lists it from outlet-service's event: booked, published and consumed as the roles.
      const listed = await eventually(async () => {
        const answer = await callGateway<TransactionResponse>(partner, 'GET', `/transactions/${reference}`);
        return answer.status === 200 && answer.body.data.transactionStatus === 'SUCCESS' ? answer.body.data : undefined;
      }, 30_000);
      expect(listed).toMatchObject({ reference, amount: '150000' });
    } finally {
      await stopApps(apps);
    }
  });
});
