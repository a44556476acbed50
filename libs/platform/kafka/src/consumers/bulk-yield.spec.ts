import { PlatformEnv } from '@payments/platform-config';

import { BulkYield } from './bulk-yield';

const yieldWith = (ratio: number) => new BulkYield(Object.assign(new PlatformEnv(), { KAFKA_BULK_YIELD: ratio }));

describe('BulkYield', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets bulk work run flat out while no command has been seen', async () => {
    await expect(yieldWith(2).after(50)).toHaveSettled();
  });

  it('rests the ratio times the work after a command, and holds every bulk handler meanwhile', async () => {
    const bulk = yieldWith(2);
    bulk.commandSeen();
    const first = bulk.after(10);
    const second = bulk.after(0);
    await expect(first).not.toHaveSettled();
    await jest.advanceTimersByTimeAsync(19);
    await expect(second).not.toHaveSettled();
    await jest.advanceTimersByTimeAsync(1);
    await expect(first).toHaveSettled();
    await expect(second).toHaveSettled();
  });

  it('saves up rests too short for a timer', async () => {
    const bulk = yieldWith(1);
    bulk.commandSeen();
    await expect(bulk.after(0.5)).toHaveSettled();
    await expect(bulk.after(0.5)).toHaveSettled();
    await expect(bulk.after(1)).not.toHaveSettled();
  });

  it('rests a second at most, however long the work took', async () => {
    const bulk = yieldWith(4);
    bulk.commandSeen();
    const rest = bulk.after(5000);
    await jest.advanceTimersByTimeAsync(999);
    await expect(rest).not.toHaveSettled();
    await jest.advanceTimersByTimeAsync(1);
    await expect(rest).toHaveSettled();
  });

  it('stops resting a second after the last command', async () => {
    const bulk = yieldWith(2);
    bulk.commandSeen();
    await jest.advanceTimersByTimeAsync(1001);
    await expect(bulk.after(50)).toHaveSettled();
  });

  it('says commands are about for a second after the last one, and never with a ratio of 0', async () => {
    const bulk = yieldWith(2);
    expect(bulk.commandsAbout()).toBe(false);
    bulk.commandSeen();
    expect(bulk.commandsAbout()).toBe(true);
    await jest.advanceTimersByTimeAsync(1001);
    expect(bulk.commandsAbout()).toBe(false);
    const flatOut = yieldWith(0);
    flatOut.commandSeen();
    expect(flatOut.commandsAbout()).toBe(false);
  });

  it('never rests with a ratio of 0', async () => {
    const bulk = yieldWith(0);
    bulk.commandSeen();
    await expect(bulk.after(50)).toHaveSettled();
  });
});
