import { ValidationFailedError } from '@payments/platform-envelope';

import { exportQuery, listQuery } from './transaction-filters';

describe('the transactions page’s filters', () => {
  it('turns days into the instants that bound them, the last day included', () => {
    const { query } = listQuery({ from: '2028-02-28', to: '2028-02-29', status: 'SUCCESS' }, undefined);
    expect(query).toMatchObject({
      from: '2028-02-28T00:00:00.000Z',
      to: '2028-03-01T00:00:00.000Z',
      status: 'SUCCESS',
      limit: 25,
    });
  });

  it('refuses days the calendar does not have, and fields given twice', () => {
    for (const query of [{ from: '2026-02-29' }, { to: '2026-13-01' }, { from: '26-11-01' }, { status: ['A', 'B'] }]) {
      expect(() => listQuery(query, undefined)).toThrow(ValidationFailedError);
    }
  });

  it('leaves out empty fields, and keeps the cursor as the API checks it', () => {
    const { query, form } = listQuery({ status: '', reference: ' R-1 ' }, 'abc_DEF-1');
    expect(query).toMatchObject({ reference: 'R-1', cursor: 'abc_DEF-1' });
    expect(query.status).toBeUndefined();
    expect(form).toMatchObject({ status: '', reference: 'R-1' });
    expect(() => listQuery({}, 'not a cursor!')).toThrow(ValidationFailedError);
  });

  it('exports the last month when the filters name no days', () => {
    const query = exportQuery({ productType: 'pos' }, new Date('2026-11-30T15:00:00Z'));
    expect(query).toMatchObject({
      from: '2026-10-31T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
      productType: 'pos',
    });
  });
});
