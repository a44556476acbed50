import { randomUUID } from 'node:crypto';

import { explainAnalyze, privateDatabase, rowsRead } from '@payments/testing';
import { DataSource } from 'typeorm';

import { database } from '../database/data-source';
import { dueForExpiryStatement, endCheckoutStatement } from './checkouts.repository';

/** `count` checkouts of one business, each past its expiry by a minute. */
const insertCheckouts = (count: number, status: string, prefix: string) =>
  `INSERT INTO gateway.checkouts (reference, business_id, amount, account_name, payment_methods, status, expires_at)
   SELECT '${prefix}-' || n, 'plans', 100, 'Plans', '{card}', '${status}', now() - interval '1 minute'
   FROM generate_series(1, ${count}) AS n`;

describe('checkout statements with statistics taken while few checkouts were open', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, drop } = await privateDatabase(database));
    await dataSource.query(
      `INSERT INTO gateway.businesses (id, name, mode, pos_encryption_key_sealed) VALUES ('plans', 'Plans', 'test', 'unused')`,
    );
    // A production server's autovacuum takes statistics in a quiet hour, over earlier days' checkouts.
    await dataSource.query(insertCheckouts(50_000, 'SUCCESS', 'paid'));
    await dataSource.query('ANALYZE gateway.checkouts');
    // Then a busy one.
    await dataSource.query(insertCheckouts(10_000, 'PROCESSING', 'open'));
  });

  afterAll(() => drop?.());

  it('ends a checkout by its reference, not by reading every open checkout', async () => {
    const outcome = ['plans', 'open-5000', 'SUCCESS', 'card', null, new Date()];
    const event = [randomUUID(), 'gateway.checkout.decided', 'open-5000', '{}', '{}'];
    const plan = await explainAnalyze(dataSource, endCheckoutStatement, [...outcome, ...event]);

    expect(rowsRead(plan, 'checkouts')).toBe(1);
  });

  it('still finds expired checkouts through the index of open ones', async () => {
    const plan = await explainAnalyze(dataSource, dueForExpiryStatement, [100]);

    expect(plan['Actual Rows']).toBe(100);
    expect(rowsRead(plan, 'checkouts')).toBe(100);
  });
});
