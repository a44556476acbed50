import { JoinedRuns } from './joined-runs';

/** A run that finishes when the test says so. */
function controlled<V>() {
  let settle!: { resolve: (value: V) => void; reject: (error: Error) => void };
  const promise = new Promise<V>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
}

describe('JoinedRuns', () => {
  it('gives a caller that arrives while the key runs the result of that run', async () => {
    const runs = new JoinedRuns<string, string>();
    const first = controlled<string>();
    let started = 0;
    const work = () => {
      started += 1;
      return started === 1 ? first.promise : Promise.resolve('second run');
    };
    const answers = Promise.all([runs.run('charge-1', work), runs.run('charge-1', work)]);
    first.resolve('booked');
    expect(await answers).toEqual(['booked', 'booked']);
    expect(started).toBe(1);
    expect(runs.size).toBe(0);
  });

  it('runs different keys side by side', async () => {
    const runs = new JoinedRuns<string, string>();
    const work = jest.fn(async () => 'done');
    await Promise.all([runs.run('a', work), runs.run('b', work)]);
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('lets a caller that joined a failed run do the work itself, and leaves the failure to the first caller', async () => {
    const runs = new JoinedRuns<string, string>();
    const first = controlled<string>();
    const own = jest.fn(async () => 'booked by the second caller');
    const failing = runs.run('charge-1', () => first.promise);
    const joining = runs.run('charge-1', own);
    first.reject(new Error('past the requester deadline'));
    await expect(failing).rejects.toThrow('past the requester deadline');
    await expect(joining).resolves.toBe('booked by the second caller');
    expect(own).toHaveBeenCalledTimes(1);
    expect(runs.size).toBe(0);
  });

  it('starts a fresh run for a caller that arrives after the key finished', async () => {
    const runs = new JoinedRuns<string, number>();
    let calls = 0;
    const work = async () => ++calls;
    await runs.run('k', work);
    expect(await runs.run('k', work)).toBe(2);
  });
});
