import { privateDatabase } from '@payments/testing';
import { DataSource } from 'typeorm';

import { database } from '../database/data-source';
import { transactionKind } from './transactions.consumer';
import { RecordedTransaction, TransactionsRepository } from './transactions.repository';

jest.setTimeout(120_000);

/** A money event's transaction, as the consumer records it. */
function recorded(event: string, productType: string, reference: string, amount: string): RecordedTransaction {
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
    sessionId: null,
    customerReference: null,
    comment: null,
    createdAt: new Date().toISOString(),
  };
}

describe('the transaction history in PostgreSQL', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  let transactions: TransactionsRepository;

  beforeAll(async () => {
    ({ dataSource, drop } = await privateDatabase(database));
    transactions = new TransactionsRepository(dataSource);
  });
  afterAll(() => drop());

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
});
