import { EntityManager } from 'typeorm';

import { CommandKey, MoneyCommandsRepository } from './money-commands.repository';

/**
 * outlets.money_commands as a map, answering the three statements the repository sends: the
 * claim (INSERT … ON CONFLICT DO NOTHING), the read of an earlier claim and the completion.
 */
function fakeTable() {
  const rows = new Map<string, { request_hash: string; result: unknown }>();
  const id = (values: unknown[]) => values.slice(0, 3).join('|');
  const em = {
    async query(sql: string, values: unknown[]) {
      if (sql.startsWith('INSERT')) {
        if (rows.has(id(values))) return [];
        rows.set(id(values), { request_hash: values[4] as string, result: null });
        return [{ reference: values[2] }];
      }
      if (sql.startsWith('SELECT')) return [rows.get(id(values))];
      if (sql.startsWith('UPDATE')) {
        rows.get(id(values))!.result = JSON.parse(values[3] as string);
        return [[], 1];
      }
      throw new Error(`unexpected statement: ${sql}`);
    },
  };
  return { rows, em: em as unknown as EntityManager };
}

const transfer: CommandKey = { namespace: 'transfer', reference: 'T-100' };

describe('MoneyCommandsRepository', () => {
  const commands = new MoneyCommandsRepository();

  it('runs the work once per key and answers a repeat with the first result', async () => {
    const { em } = fakeTable();
    let runs = 0;
    const work = async () => ({ entryId: `E-${++runs}` });
    const first = await commands.once(em, 'biz-1', transfer, 'internal_transfer', { amount: '500', to: 'w2' }, work);
    const again = await commands.once(em, 'biz-1', transfer, 'internal_transfer', { to: 'w2', amount: '500' }, work);
    expect(first).toEqual({ entryId: 'E-1' });
    expect(again).toEqual(first);
    expect(runs).toBe(1);
  });

  it('refuses the same reference with other content, naming the reference', async () => {
    const { em } = fakeTable();
    await commands.once(em, 'biz-1', transfer, 'internal_transfer', { amount: '500' }, async () => 'done');
    await expect(
      commands.once(em, 'biz-1', transfer, 'internal_transfer', { amount: '501' }, async () => 'again'),
    ).rejects.toMatchObject({ code: 'REFERENCE_CONFLICT' });
  });

  it('refuses a reused Idempotency-Key as such, and a key whose first request never finished', async () => {
    const { em } = fakeTable();
    const key: CommandKey = { namespace: 'idempotency-key', reference: 'k-1' };
    await commands.once(em, 'biz-1', key, 'create_outlet', { accountName: 'A' }, async () => 'outlet');
    await expect(
      commands.once(em, 'biz-1', key, 'create_outlet', { accountName: 'B' }, async () => 'other'),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });

    const unfinished: CommandKey = { namespace: 'idempotency-key', reference: 'k-2' };
    await commands.claim(em, 'biz-1', unfinished, 'create_outlet', { accountName: 'A' });
    await expect(
      commands.once(em, 'biz-1', unfinished, 'create_outlet', { accountName: 'A' }, async () => 'x'),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('keeps keys apart by business and by namespace', async () => {
    const { em, rows } = fakeTable();
    let runs = 0;
    const work = async () => ++runs;
    await commands.once(em, 'biz-1', transfer, 'internal_transfer', { amount: '500' }, work);
    await commands.once(em, 'biz-2', transfer, 'internal_transfer', { amount: '500' }, work);
    await commands.once(em, 'biz-1', { namespace: 'session', reference: 'T-100' }, 'funding', { amount: '500' }, work);
    expect(runs).toBe(3);
    expect(rows.size).toBe(3);
  });
});
