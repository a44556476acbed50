import { BatchedWrites } from './batched-writes';

/** A write that waits until the test lets it finish, recording each batch it was given. */
function controlledWrite() {
  const batches: number[][] = [];
  const finishes: ((error?: Error) => void)[] = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      finishes.push((error) => (error ? reject(error) : resolve()));
    });
  return { batches, write, finish: (index: number, error?: Error) => finishes[index](error) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedWrites', () => {
  it('writes the first item at once, and what arrives meanwhile together in the next write', async () => {
    const { batches, write, finish } = controlledWrite();
    const writes = new BatchedWrites(write, 100);
    const first = writes.add(1);
    const later = [writes.add(2), writes.add(3), writes.add(4)];
    expect(batches).toEqual([[1]]);
    finish(0);
    await first;
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finish(1);
    await Promise.all(later);
    await writes.drained();
  });

  it('with a linger, holds the first item for company only while company comes', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const { batches, write, finish } = controlledWrite();
      const writes = new BatchedWrites(write, 100, 5);
      const lone = writes.add(1);
      expect(batches).toEqual([[1]]);
      const company = [writes.add(2), writes.add(3)];
      finish(0);
      await lone;
      await turn();
      expect(batches).toEqual([[1], [2, 3]]);
      finish(1);
      await Promise.all(company);
      await writes.drained();

      // Company came last time: the next first item waits for more.
      const waiting = [writes.add(4)];
      jest.advanceTimersByTime(4);
      await turn();
      expect(batches).toHaveLength(2);
      waiting.push(writes.add(5));
      jest.advanceTimersByTime(1);
      await turn();
      expect(batches[2]).toEqual([4, 5]);
      finish(2);
      await Promise.all(waiting);
      await writes.drained();

      // It waits once more, finds none, and the item after that goes at once.
      const alone = writes.add(6);
      jest.advanceTimersByTime(5);
      await turn();
      expect(batches[3]).toEqual([6]);
      finish(3);
      await alone;
      await writes.drained();
      const atOnce = writes.add(7);
      expect(batches[4]).toEqual([7]);
      finish(4);
      await atOnce;
    } finally {
      jest.useRealTimers();
    }
  });

  it('holds a write to maxBatch items', async () => {
    const { batches, write, finish } = controlledWrite();
    const writes = new BatchedWrites(write, 2);
    const all = [1, 2, 3, 4, 5, 6].map((item) => writes.add(item));
    for (let index = 0; index < 4; index += 1) {
      await turn();
      finish(index);
    }
    await Promise.all(all);
    expect(batches).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it('fails the callers of a failed write only, and goes on with the next', async () => {
    const { write, finish } = controlledWrite();
    const writes = new BatchedWrites(write, 100);
    const first = writes.add(1);
    const second = writes.add(2);
    finish(0, new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await turn();
    finish(1);
    await expect(second).resolves.toBeUndefined();
  });

  it('writes again after a quiet spell, and drained() waits for the write in flight', async () => {
    const { batches, write, finish } = controlledWrite();
    const writes = new BatchedWrites(write, 100);
    const first = writes.add(1);
    finish(0);
    await first;
    await writes.drained();
    const second = writes.add(2);
    let drained = false;
    const draining = writes.drained().then(() => (drained = true));
    await turn();
    expect(drained).toBe(false);
    finish(1);
    await Promise.all([second, draining]);
    expect(batches).toEqual([[1], [2]]);
  });
});
