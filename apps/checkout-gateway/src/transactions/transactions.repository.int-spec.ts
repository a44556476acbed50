import { randomBytes } from 'node:crypto';

import { TransactionFilters } from '@payments/contracts';
import { explainAnalyze, privateDatabase, rowsRead } from '@payments/testing';
import { DataSource } from 'typeorm';

import { PageCursors } from '../common/page-cursors';
import { database } from '../database/data-source';
import { TransactionOutlets1763769600059 } from '../database/migrations/1763769600059-transaction-outlets';
import { transactionKind } from './transactions.consumer';
import { RecordedTransaction, TransactionsRepository } from './transactions.repository';
import { TransactionsService } from './transactions.service';

jest.setTimeout(120_000);

/** A money event's transaction, as the consumer records it. */
function recorded(
  event: string,
  productType: string,
  reference: string,
  amount: string,
  overrides: Partial<RecordedTransaction> = {},
): RecordedTransaction {
  return {
    businessId: 'business-a',
    eventId: `${event}-${reference}-${productType}`,
    event,
    kind: transactionKind(event, productType),
    reference,
    productType,
    transactionType: event.startsWith('refund.') ? 'DEBIT' : 'CREDIT',
    transactionStatus: 'SUCCESS',
    amount,
    fee: '0',
    commission: '0',
    netAmount: amount,
    transactionAccount: '',
    outletId: null,
    sourceOutletId: null,
    sessionId: null,
    customerReference: null,
    comment: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** A collection payment of `businessId` created at `createdAt`, named `reference`. */
const paidAt = (businessId: string, reference: string, createdAt: string) =>
  recorded('fundAccount.success', 'collection', reference, '100', { businessId, createdAt });

describe('the transaction history in PostgreSQL', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  let transactions: TransactionsRepository;

  beforeAll(async () => {
    ({ dataSource, drop } = await privateDatabase(database));
    transactions = new TransactionsRepository(dataSource);
  });
  afterAll(() => drop());

  /** Records each transaction in its own statement, in the order given: that is their arrival. */
  const arrive = async (...rows: RecordedTransaction[]) => {
    for (const row of rows) await transactions.record(dataSource.manager, [row]);
  };
  const listed = async (businessId: string, filters: TransactionFilters = {}) =>
    (await transactions.newestFirst(businessId, filters, null, 100)).map(({ transaction }) => transaction.reference);

  it('finds a refund by productType=refund, including one of a card captured after its checkout ended', async () => {
    await transactions.record(dataSource.manager, [
      recorded('checkout.success', 'checkout', 'CHK-1', '30000'),
      recorded('refund.success', 'refund', 'CHK-1', '10000'),
      // A card captured after its checkout ended is refunded at once, and announced as a card refund.
      recorded('refund.success', 'card', 'CHK-2', '25000'),
    ]);

    expect(await transactions.get('business-a', 'CHK-1', 'refund')).toMatchObject({ amount: '10000' });
    expect(await transactions.get('business-a', 'CHK-2', 'refund')).toMatchObject({
      productType: 'card',
      amount: '25000',
    });
    expect(await transactions.get('business-a', 'CHK-2', 'card')).toMatchObject({ amount: '25000' });
    expect(await transactions.get('business-a', 'CHK-2', 'checkout')).toBeNull();
    expect(await transactions.get('business-b', 'CHK-2', 'refund')).toBeNull();

    const refunds = await transactions.newestFirst('business-a', { productType: 'refund' }, null, 10);
    expect(refunds.map(({ transaction }) => [transaction.reference, transaction.amount]).sort()).toEqual([
      ['CHK-1', '10000'],
      ['CHK-2', '25000'],
    ]);
  });

  it('lists newest first by createdAt, not by arrival, and of one createdAt the last to arrive first', async () => {
    await arrive(
      paidAt('business-order', 'late-in-the-second', '2026-11-23T10:15:00.900Z'),
      paidAt('business-order', 'early-in-the-second', '2026-11-23T10:15:00.100Z'),
      paidAt('business-order', 'tie-first', '2026-11-23T10:15:00.500Z'),
      paidAt('business-order', 'tie-second', '2026-11-23T10:15:00.500Z'),
      // Microseconds count: PostgreSQL keeps them, and so does the order.
      paidAt('business-order', 'a-microsecond-later', '2026-11-23T10:15:00.500001Z'),
    );
    const newestFirst = ['late-in-the-second', 'a-microsecond-later', 'tie-second', 'tie-first', 'early-in-the-second'];
    expect(await listed('business-order')).toEqual(newestFirst);
    const exported: string[] = [];
    for await (const transaction of transactions.oldestFirst('business-order', {}, 2)) {
      exported.push(transaction.reference);
    }
    expect(exported).toEqual([...newestFirst].reverse());
    expect(await transactions.get('business-order', 'tie-first', null)).toMatchObject({ reference: 'tie-first' });
  });

  it('pages through rows of one second with cursors, never showing a row twice or skipping one', async () => {
    const businessId = 'business-paging';
    // 40 transactions over 6 instants of one second, arriving in no order of theirs.
    const rows = Array.from({ length: 40 }, (_, index) =>
      paidAt(businessId, `P-${index}`, `2026-11-23T10:15:00.${String((index * 7) % 6).padStart(3, '0')}Z`),
    );
    await arrive(...rows);
    const service = new TransactionsService(transactions, new PageCursors(randomBytes(32).toString('base64')));
    // Newest createdAt first, and of one createdAt the last to arrive (the highest index) first.
    const everything = rows
      .map((row, arrival) => ({ reference: row.reference, createdAt: row.createdAt, arrival }))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.arrival - a.arrival)
      .map((row) => row.reference);
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let round = 0; ; round++) {
      const page = await service.page(businessId, { limit: 3, cursor });
      paged.push(...page.items.map((item) => item.reference));
      // Arriving while the partner pages: newer than the first page, so on none of these pages.
      if (round === 2) await arrive(paidAt(businessId, 'arrived-meanwhile', '2026-11-23T10:15:01.000Z'));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(paged).toEqual(everything);
    expect(new Set(paged).size).toBe(40);
    expect(await listed(businessId)).toEqual(['arrived-meanwhile', ...everything]);
  });

  it('reads a page deep in a long history from its index: the rows it shows, and one more', async () => {
    const businessId = 'business-deep';
    const rows = Array.from({ length: 3000 }, (_, index) =>
      paidAt(businessId, `D-${index}`, new Date(Date.UTC(2026, 10, 1) + (index % 1500) * 1000).toISOString()),
    );
    for (let start = 0; start < rows.length; start += 500) {
      await transactions.record(dataSource.manager, rows.slice(start, start + 500));
    }
    await dataSource.query('ANALYZE gateway.transactions');
    const [, middle] = await transactions.newestFirst(businessId, {}, null, 1500);
    const statements: [string, unknown[]][] = [];
    const watched = new TransactionsRepository({
      query: (statement: string, parameters: unknown[]) => {
        statements.push([statement, parameters]);
        return dataSource.query(statement, parameters);
      },
    } as unknown as DataSource);
    const page = await watched.newestFirst(businessId, {}, middle.place, 20);
    expect(page).toHaveLength(20);
    const plan = await explainAnalyze(dataSource, ...statements[0]);
    expect(rowsRead(plan, 'transactions')).toBeLessThanOrEqual(21);
  });

  it('finds an internal transfer under the outlet of either wallet, and a payout under its outlet', async () => {
    const businessId = 'business-outlets';
    await arrive(
      recorded('internalTransfer.successful', 'internal_transfer', 'between-outlets', '300', {
        businessId,
        outletId: 'OUT-B',
        sourceOutletId: 'OUT-A',
      }),
      recorded('bankTransfer.success', 'payout', 'payout-from-a', '4000', { businessId, outletId: 'OUT-A' }),
      recorded('fundAccount.success', 'collection', 'paid-into-c', '100', { businessId, outletId: 'OUT-C' }),
    );
    expect(await listed(businessId, { outletId: 'OUT-A' })).toEqual(['payout-from-a', 'between-outlets']);
    expect(await listed(businessId, { outletId: 'OUT-B' })).toEqual(['between-outlets']);
    expect(await listed(businessId, { outletId: 'OUT-C' })).toEqual(['paid-into-c']);
    expect(await transactions.get(businessId, 'between-outlets', null)).toMatchObject({ outletId: 'OUT-B' });
  });
});

describe('migrating the transaction history to outlets on payouts and transfers', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const before = database.migrations.filter((migration) => migration !== TransactionOutlets1763769600059);
    ({ dataSource, drop } = await privateDatabase({ ...database, migrations: before }));
  });
  afterAll(() => drop());

  it('gives old payouts and transfers the outlet the history knows of their account, and no other', async () => {
    const row = (business: string, reference: string, productType: string, account: string, outlet: string | null) =>
      dataSource.query(
        `INSERT INTO gateway.transactions (business_id, kind, reference, product_type, transaction_type, status,
           amount, fee, commission, net_amount, account, outlet_id, event, event_id, created_at)
         VALUES ($1, $3, $2, $3, 'CREDIT', 'SUCCESS', 100, 0, 0, 100, $4, $5, 'e', $2, now())`,
        [business, reference, productType, account, outlet],
      );
    await row('biz', 'funding', 'deposit', '9000000001', 'OUT-A');
    await row('biz', 'sweep', 'sweep', '9000000002', 'OUT-B');
    // A POS payment names its terminal's outlet, which need not own the wallet it was paid into.
    await row('biz', 'pos', 'pos', '9000000003', 'OUT-TERMINAL');
    await row('biz', 'old-payout', 'payout', '9000000001', null);
    await row('biz', 'old-transfer', 'internal_transfer', '9000000002', null);
    await row('biz', 'transfer-to-pos-wallet', 'internal_transfer', '9000000003', null);
    await row('biz', 'transfer-to-settlement', 'internal_transfer', '01JD3Q8ZK4T6W2V9XG5H7M1N3U', null);
    await row('other-biz', 'their-payout', 'payout', '9000000001', null);

    const runner = dataSource.createQueryRunner();
    await new TransactionOutlets1763769600059().up(runner).finally(() => runner.release());

    const outlets = (await dataSource.query(
      `SELECT reference, outlet_id, source_outlet_id FROM gateway.transactions
       WHERE product_type IN ('payout', 'internal_transfer') ORDER BY reference`,
    )) as { reference: string; outlet_id: string | null; source_outlet_id: string | null }[];
    expect(outlets.map((found) => [found.reference, found.outlet_id, found.source_outlet_id])).toEqual([
      ['old-payout', 'OUT-A', null],
      ['old-transfer', 'OUT-B', null],
      ['their-payout', null, null],
      ['transfer-to-pos-wallet', null, null],
      ['transfer-to-settlement', null, null],
    ]);
  });
});
