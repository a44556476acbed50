import { PartnerCredentials } from '@payments/contracts';
import { testEnvironment, uniqueName } from '@payments/testing';
import { Client } from 'pg';

import { nodeScriptSync, spawnApp, waitForReady } from './apps';

jest.setTimeout(180_000);

/** Each app runs as a login of its own that can use its own schema only; migrations run as the owner. */
describe('least privilege in PostgreSQL', () => {
  const server = new URL(testEnvironment().DATABASE_URL!);
  const database = uniqueName('payments_roles');
  const [gatewayRole, ledgerRole] = [uniqueName('gateway_role'), uniqueName('ledger_role')];
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
  const migrateAs = (app: string, role: string) => {
    const result = nodeScriptSync('tools/runtime/migrate.cjs', { DATABASE_URL: owner, DATABASE_APP_ROLE: role }, [app]);
    if (result.status !== 0) throw new Error(`migrating ${app} failed: ${result.stderr}`);
  };

  beforeAll(async () => {
    await onServer(maintenance(), async (client) => {
      for (const role of [gatewayRole, ledgerRole]) await client.query(`CREATE ROLE "${role}" LOGIN`);
    });
    migrateAs('checkout-gateway', gatewayRole);
    migrateAs('outlet-service', ledgerRole);
  });

  afterAll(async () => {
    await onServer(maintenance(), async (client) => {
      await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      for (const role of [gatewayRole, ledgerRole]) await client.query(`DROP ROLE IF EXISTS "${role}"`);
    });
  });

  it("lets the gateway's role use its own tables, and refuses it the ledger's tables and any DDL", async () => {
    const refusal = (statement: string) =>
      onServer(urlAs(gatewayRole), (client) => client.query(statement)).then(
        () => 'allowed',
        (error: { code?: string }) => error.code,
      );
    expect(await refusal('SELECT count(*) FROM gateway.checkouts')).toBe('allowed');
    expect(await refusal('SELECT count(*) FROM outlets.wallets')).toBe('42501');
    expect(await refusal('SELECT count(*) FROM outlets.journal_entries')).toBe('42501');
    expect(await refusal('CREATE TABLE gateway.intruder (id int)')).toBe('42501');
    expect(await refusal('DROP TABLE gateway.checkouts')).toBe('42501');
    // The ledger's role, likewise, sees nothing of the gateway's.
    const ledger = await onServer(urlAs(ledgerRole), (client) => client.query('SELECT 1 FROM gateway.businesses')).then(
      () => 'allowed',
      (error: { code?: string }) => error.code,
    );
    expect(ledger).toBe('42501');
  });

  it('runs the gateway and its operator commands as its role: a partner onboarded from its pod creates and reads a checkout', async () => {
    // As `kubectl exec deploy/checkout-gateway -- payments partner-create` runs it: the pod's
    // login, and no migrations (the release's Job ran them).
    const asTheGatewayPod = { DATABASE_URL: urlAs(gatewayRole), MIGRATE_ON_START: 'false' };
    const created = nodeScriptSync('dist/apps/checkout-gateway/src/cli/partner-create.js', asTheGatewayPod, [
      '--name',
      'Least Privilege Ltd',
      '--json',
    ]);
    expect(created.status === 0 ? 'created' : created.stderr).toBe('created');
    const partner = JSON.parse(created.stdout) as PartnerCredentials;
    const port = 19530;
    const gateway = spawnApp('checkout-gateway', { PORT: String(port), ...asTheGatewayPod });
    try {
      await waitForReady(port, gateway);
      const headers = {
        'x-api-key': partner.apiKey,
        'x-api-secret': partner.apiSecret,
        'content-type': 'application/json',
      };
      const answer = await fetch(`http://127.0.0.1:${port}/payin/charge/requests`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ amount: '150000', accountName: 'Least Privilege Shop', paymentMethod: ['card'] }),
      });
      expect(answer.status).toBe(200);
      const { reference } = ((await answer.json()) as { data: { reference: string } }).data;
      const read = await fetch(`http://127.0.0.1:${port}/payin/charge/requests/${reference}`, { headers });
      expect(read.status).toBe(200);
    } finally {
      gateway.process.kill('SIGTERM');
      await gateway.exited;
    }
  });
});
