import { firstRow, Queryable, singleRow } from './first-row';

/** Answers every statement with the given rows and remembers what it was asked. */
function returning(rows: unknown[]): Queryable & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    query: async (sql, parameters) => {
      calls.push([sql, parameters]);
      return rows;
    },
  };
}

describe('firstRow', () => {
  it('passes the statement and its parameters through and answers the first row', async () => {
    const runner = returning([{ id: 'a' }, { id: 'b' }]);

    await expect(firstRow<{ id: string }>(runner, 'SELECT id FROM t WHERE k = $1', ['k1'])).resolves.toEqual({
      id: 'a',
    });
    expect(runner.calls).toEqual([['SELECT id FROM t WHERE k = $1', ['k1']]]);
  });

  it('answers undefined when the statement returns no row', async () => {
    await expect(firstRow(returning([]), 'SELECT 1 WHERE false')).resolves.toBeUndefined();
  });
});

describe('singleRow', () => {
  it('answers the row a statement returns', async () => {
    await expect(singleRow(returning([{ total: '5' }]), 'SELECT sum(x) AS total FROM t')).resolves.toEqual({
      total: '5',
    });
  });

  it('fails, naming the statement, when no row came back', async () => {
    await expect(singleRow(returning([]), '\n  INSERT INTO t (x) VALUES (1)\n  RETURNING *')).rejects.toThrow(
      'Expected a row from: INSERT INTO t (x) VALUES (1)',
    );
  });
});
