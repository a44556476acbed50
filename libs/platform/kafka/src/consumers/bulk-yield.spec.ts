import { PlatformEnv } from '@payments/platform-config';

import { BulkYield } from './bulk-yield';

const yieldWith = (ratio: number) => new BulkYield(Object.assign(new PlatformEnv(), { KAFKA_BULK_YIELD: ratio }));

/** Whether `promise` has settled once timers due by now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await jest.advanceTimersByTimeAsync(0);
  return done;
}

describe('BulkYield', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets bulk work run flat out while no command has been seen', async () => {
    expect(await settled(yieldWith(2).after(50))).toBe(true);
  });

  it('rests the ratio times the work after a command, and holds every bulk handler meanwhile', async () => {
    const bulk = yieldWith(2);
    bulk.commandSeen();
    const first = bulk.after(10);
    const second = bulk.after(0);
    expect(await settled(first)).toBe(false);
    await jest.advanceTimersByTimeAsync(19);
    expect(await settled(second)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
  });

  it('saves up rests too short for a timer', async () => {
    const bulk = yieldWith(1);
    bulk.commandSeen();
    expect(await settled(bulk.after(0.5))).toBe(true);
    expect(await settled(bulk.after(0.5))).toBe(true);
    expect(await settled(bulk.after(1))).toBe(false);
  });

  it('rests a second at most, however long the work took', async () => {
    const bulk = yieldWith(4);
    bulk.commandSeen();
    const rest = bulk.after(5000);
    await jest.advanceTimersByTimeAsync(999);
    expect(await settled(rest)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(rest)).toBe(true);
  });

  it('stops resting a second after the last command', async () => {
    const bulk = yieldWith(2);
    bulk.commandSeen();
    await jest.advanceTimersByTimeAsync(1001);
    expect(await settled(bulk.after(50))).toBe(true);
  });

  it('never rests with a ratio of 0', async () => {
    const bulk = yieldWith(0);
    bulk.commandSeen();
    expect(await settled(bulk.after(50))).toBe(true);
  });
});
