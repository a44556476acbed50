import { randomBytes } from 'node:crypto';

import { TransactionResponse, TransactionsQuery } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';

import { PageCursors } from '../common/page-cursors';
import { StoredTransaction, TransactionPlace, TransactionsRepository } from './transactions.repository';
import { TransactionsService } from './transactions.service';

/** A history of `count` transactions, newest first, that remembers the places it was asked to start after. */
function history(count: number) {
  const rows: StoredTransaction[] = Array.from({ length: count }, (_, index) => ({
    place: { createdAt: `2026-11-23T10:15:00.${String(900_000 - index).padStart(6, '0')}Z`, arrival: `${index + 1}` },
    transaction: { reference: `T-${index}` } as TransactionResponse,
  }));
  const asked: (TransactionPlace | null)[] = [];
  const repository = {
    newestFirst: async (_businessId: string, _filters: unknown, after: TransactionPlace | null, limit: number) => {
      asked.push(after);
      const start = after ? rows.findIndex((row) => row.place.arrival === after.arrival) + 1 : 0;
      return rows.slice(start, start + limit);
    },
  } as unknown as TransactionsRepository;
  return { repository, asked };
}

const cursors = new PageCursors(randomBytes(32).toString('base64'));
const query = (overrides: Partial<TransactionsQuery> = {}) => ({ limit: 2, ...overrides }) as TransactionsQuery;

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return { status: error.status, code: error.code, errors: error.details.errors };
}

describe('TransactionsService.page', () => {
  it('answers 422 naming the cursor for a base64 row number (docs showed MTIzNDU), before reading anything', async () => {
    const { repository, asked } = history(5);
    const service = new TransactionsService(repository, cursors);
    for (const forged of ['MTIzNDU', Buffer.from('3').toString('base64url')]) {
      expect(await refusal(service.page('BUS-1', query({ cursor: forged })))).toEqual({
        status: 422,
        code: 'VALIDATION_FAILED',
        errors: [{ field: 'cursor', messages: ['cursor must be a nextCursor this API returned'] }],
      });
    }
    expect(asked).toEqual([]);
  });

  it('starts the next page after the place its cursor sealed, and ends with no cursor', async () => {
    const { repository, asked } = history(5);
    const service = new TransactionsService(repository, cursors);
    const references: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await service.page('BUS-1', query({ cursor: cursor ?? undefined }));
      references.push(...page.items.map((item) => item.reference));
      cursor = page.nextCursor;
    } while (cursor);
    expect(references).toEqual(['T-0', 'T-1', 'T-2', 'T-3', 'T-4']);
    expect(asked.map((place) => place?.arrival ?? null)).toEqual([null, '2', '4']);
    expect(asked[1]).toEqual({ createdAt: '2026-11-23T10:15:00.899999Z', arrival: '2' });
  });

  it("refuses a cursor another business's page gave", async () => {
    const { repository } = history(5);
    const service = new TransactionsService(repository, cursors);
    const { nextCursor } = await service.page('BUS-1', query());
    expect(await refusal(service.page('BUS-2', query({ cursor: nextCursor! })))).toMatchObject({
      status: 422,
      errors: [{ field: 'cursor' }],
    });
  });
});
