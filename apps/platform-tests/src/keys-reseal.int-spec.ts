import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

import { Sealer } from '@payments/platform-crypto';
import { AppDatabase, resealColumn, SealedColumn } from '@payments/platform-database';
import { privateDatabase, sealedBeforeRings } from '@payments/testing';
import { DataSource } from 'typeorm';

import { nodeScriptSync, repoRoot } from './apps';

jest.setTimeout(120_000);

const newKey = () => randomBytes(32).toString('base64');

/**
 * A key leaves its ring only once nothing kept is sealed under it: `npm run keys:reseal` seals
 * each such value again under the ring's current key, here on webhook-dispatcher's schema, which
 * keeps the most kinds (plain columns, a jsonb array, a two-column key).
 */
describe('sealing kept values again under the current key', () => {
  const built = join(repoRoot, 'dist/apps/webhook-dispatcher/src');
  let database: AppDatabase;
  let sealedColumns: (env: Record<string, string>) => SealedColumn[];
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  const [oldApiKey, newApiKey, oldSecretKey, newSecretKey] = [newKey(), newKey(), newKey(), newKey()];
  const rotated = {
    API_KEY_SEALING_KEY: `${newApiKey},${oldApiKey}`,
    WEBHOOK_SECRET_SEALING_KEY: `${newSecretKey},${oldSecretKey}`,
  };

  beforeAll(async () => {
    ({ database } = (await import(join(built, 'database/data-source.js'))) as { database: AppDatabase });
    ({ sealedColumns } = await import(join(built, 'database/sealed-columns.js')));
    ({ dataSource, drop } = await privateDatabase(database));
  });

  afterAll(async () => {
    await drop?.();
  });

  /** Businesses whose every kept secret is under the old keys, one of them from before rings. */
  async function keptUnderOldKeys(businesses: string[]): Promise<void> {
    const apiKeys = new Sealer(oldApiKey);
    const secrets = new Sealer(oldSecretKey);
    for (const business of businesses) {
      const older = [{ sealed: secrets.seal(`whsec_older_${business}`, business), expiresAt: '2030-01-01T00:00:00Z' }];
      await dataSource.query(
        `INSERT INTO webhooks.endpoints (business_id, mode, url, api_key_sealed, previous_api_key_sealed,
           signing_secret_sealed, previous_signing_secret_sealed, older_signing_secrets)
         VALUES ($1, 'test', 'https://hooks.example.ng', $2, $3, $4, $5, $6::jsonb)`,
        [
          business,
          apiKeys.seal(`sk_test_${business}`, business),
          sealedBeforeRings(oldApiKey, `sk_test_previous_${business}`, business),
          secrets.seal(`whsec_${business}`, business),
          secrets.seal(`whsec_previous_${business}`, business),
          JSON.stringify(older),
        ],
      );
      await dataSource.query(
        `INSERT INTO webhooks.partner_endpoints (id, business_id, url, events, signing_secret_sealed)
         VALUES ($1, $2, 'https://hooks.example.ng/2', '{charge.success}', $3)`,
        [`ep_${business}`, business, secrets.seal(`whsec_added_${business}`, `ep_${business}`)],
      );
      await dataSource.query(
        `INSERT INTO webhooks.secret_rolls (business_id, idempotency_key, endpoint_id, grace_period_hours, response_sealed)
         VALUES ($1, 'roll-1', $2, 24, $3)`,
        [business, `ep_${business}`, secrets.seal(JSON.stringify({ id: `ep_${business}` }), business)],
      );
    }
  }

  /** What keptUnderOldKeys keeps for a business, in the order openedWithNewKeysAlone opens it. */
  function keptSecretsOf(business: string): string[] {
    return [
      `sk_test_${business}`,
      `sk_test_previous_${business}`,
      `whsec_${business}`,
      `whsec_previous_${business}`,
      `whsec_older_${business}`,
      `whsec_added_${business}`,
      JSON.stringify({ id: `ep_${business}` }),
    ];
  }

  /** Every kept value, opened with the new keys alone: what it says, or why it does not open. */
  async function openedWithNewKeysAlone(business: string): Promise<string[]> {
    const apiKeys = new Sealer(newApiKey);
    const secrets = new Sealer(newSecretKey);
    const open = (sealer: Sealer, value: string, boundTo: string) => {
      try {
        return sealer.open(value, boundTo);
      } catch (error) {
        return (error as Error).message;
      }
    };
    const [endpoint] = await dataSource.query(`SELECT * FROM webhooks.endpoints WHERE business_id = $1`, [business]);
    const [added] = await dataSource.query(`SELECT * FROM webhooks.partner_endpoints WHERE business_id = $1`, [
      business,
    ]);
    const [roll] = await dataSource.query(`SELECT * FROM webhooks.secret_rolls WHERE business_id = $1`, [business]);
    return [
      open(apiKeys, endpoint.api_key_sealed, business),
      open(apiKeys, endpoint.previous_api_key_sealed, business),
      open(secrets, endpoint.signing_secret_sealed, business),
      open(secrets, endpoint.previous_signing_secret_sealed, business),
      ...endpoint.older_signing_secrets.map((entry: { sealed: string }) => open(secrets, entry.sealed, business)),
      open(secrets, added.signing_secret_sealed, added.id),
      open(secrets, roll.response_sealed, business),
    ];
  }

  it('seals each value again exactly once while two runs race, after which the old keys can go', async () => {
    // More businesses than one batch, so that runs page through the rows.
    const businesses = Array.from({ length: 520 }, (_, index) => `biz_${String(index).padStart(4, '0')}`);
    await keptUnderOldKeys(businesses);
    const columns = sealedColumns(rotated);
    const run = () => Promise.all(columns.map((column) => resealColumn(dataSource, column)));
    const [first, second] = await Promise.all([run(), run()]);
    const resealed = [...first, ...second].reduce((sum, count) => sum + count.resealed, 0);
    // Per business: 2 API keys, 2 + 1 older signing secrets, 1 added endpoint's, 1 roll's answer.
    expect(resealed).toBe(businesses.length * 7);
    expect([...first, ...second].every((count) => count.unopenable === 0)).toBe(true);
    for (const business of [businesses[0], businesses[businesses.length - 1]]) {
      expect(await openedWithNewKeysAlone(business)).toEqual(keptSecretsOf(business));
    }
    const again = await run();
    expect(again.map((count) => count.resealed)).toEqual(columns.map(() => 0));
  });

  it('leaves nothing under the old key while the app rolls secrets during the run', async () => {
    const businesses = Array.from({ length: 200 }, (_, index) => `race_${String(index).padStart(4, '0')}`);
    await keptUnderOldKeys(businesses);
    const [older] = sealedColumns(rotated).filter((column) => column.column === 'older_signing_secrets');
    const rolling = new Sealer(rotated.WEBHOOK_SECRET_SEALING_KEY);
    // As a secret roll does: the secret rolled away goes first in the array, under the current key.
    const roll = (business: string, round: number) =>
      dataSource.query(
        `UPDATE webhooks.endpoints SET older_signing_secrets = jsonb_build_array(jsonb_build_object('sealed', $2::text, 'expiresAt', '2030-01-01T00:00:00Z')) || older_signing_secrets
          WHERE business_id = $1`,
        [business, rolling.seal(`whsec_rolled_${round}_${business}`, business)],
      );
    const rolls = async () => {
      for (let round = 0; round < 3; round += 1) {
        for (let index = 0; index < businesses.length; index += 20) {
          await Promise.all(businesses.slice(index, index + 20).map((business) => roll(business, round)));
        }
      }
    };
    const [count] = await Promise.all([resealColumn(dataSource, older), rolls()]);
    expect(count.changedMeanwhile).toBe(0);
    const secrets = new Sealer(newSecretKey);
    for (const business of businesses) {
      const [{ older_signing_secrets: entries }] = await dataSource.query(
        `SELECT older_signing_secrets FROM webhooks.endpoints WHERE business_id = $1`,
        [business],
      );
      expect([business, entries.map((entry: { sealed: string }) => secrets.open(entry.sealed, business))]).toEqual([
        business,
        [
          `whsec_rolled_2_${business}`,
          `whsec_rolled_1_${business}`,
          `whsec_rolled_0_${business}`,
          `whsec_older_${business}`,
        ],
      ]);
    }
  });

  it('is the keys-reseal command, which reports each column and fails on a value no key of the ring opens', async () => {
    const { url } = dataSource.options as { url: string };
    const business = 'biz_unopenable';
    await keptUnderOldKeys([business]);
    // Sealed under a key no ring holds: reported and left, never dropped.
    await dataSource.query(`UPDATE webhooks.endpoints SET api_key_sealed = $2 WHERE business_id = $1`, [
      business,
      new Sealer(newKey()).seal('sk_test_lost', business),
    ]);
    const result = nodeScriptSync('tools/runtime/keys-reseal.cjs', { DATABASE_URL: url, ...rotated }, [
      'webhook-dispatcher',
    ]);
    expect(result.stdout).toContain(
      `webhook-dispatcher: webhooks.endpoints.api_key_sealed: 721 sealed, 200 sealed again under key ${new Sealer(newApiKey).currentKeyId}, 1 under no key of the ring (left as they are)`,
    );
    expect(result.stdout).toContain('webhooks.endpoints.previous_api_key_sealed: 721 sealed, 201 sealed again');
    expect(result.status).toBe(3);
    // All but the first, the API key no ring holds.
    expect((await openedWithNewKeysAlone(business)).slice(1)).toEqual(keptSecretsOf(business).slice(1));
  });
});
