import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { PageQuery } from './page.query';
import { TransactionsQuery } from './transactions/transactions.dto';
import { ListDeliveriesQuery } from './webhooks/webhooks.dto';

/** The query string's text, as the validation pipe turns it into a query class; the fields refused. */
function refusedFields(queryClass: new () => object, query: Record<string, string>): string[] {
  const errors = validateSync(plainToInstance(queryClass, query));
  return errors.map((error) => error.property);
}

describe('page and limit in every listing', () => {
  it.each(
    [PageQuery, TransactionsQuery, ListDeliveriesQuery].map((query): [string, new () => object] => [query.name, query]),
  )('%s takes a limit from 1 to 100, from text', (_name, query) => {
    expect(refusedFields(query, { limit: '100' })).toEqual([]);
    expect(plainToInstance(query, { limit: '7' })).toMatchObject({ limit: 7 });
    expect(plainToInstance(query, {})).toMatchObject({ limit: 20 });
    for (const limit of ['0', '101', '2.5', 'ten']) expect(refusedFields(query, { limit })).toEqual(['limit']);
  });

  it('refuses pages beyond 10,000', () => {
    expect(refusedFields(PageQuery, { page: '10000' })).toEqual([]);
    expect(refusedFields(PageQuery, { page: '10001' })).toEqual(['page']);
  });
});
