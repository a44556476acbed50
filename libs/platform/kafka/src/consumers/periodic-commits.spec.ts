import { EventEmitter } from 'node:events';

import type { Consumer } from 'kafkajs';

import { PeriodicCommits } from './periodic-commits';

/** A consumer whose commits wait until `release` is called, as one following a moving coordinator. */
function slowConsumer() {
  const emitter = new EventEmitter();
  const commits: unknown[] = [];
  let release = () => undefined as void;
  const consumer = {
    events: { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' },
    on: (event: string, listener: () => void) => emitter.on(event, listener),
    commitOffsets: (offsets: unknown) => {
      commits.push(offsets);
      return new Promise<void>((resolve) => (release = resolve));
    },
  } as unknown as Consumer;
  return { consumer, commits, emitter, release: () => release() };
}

const resolvedAt = (offset: string) => () => ({ topics: [{ topic: 't', partitions: [{ partition: 0, offset }] }] });

describe('PeriodicCommits', () => {
  it('queues no commit behind one still under way', async () => {
    const { consumer, commits, release } = slowConsumer();
    const periodic = new PeriodicCommits(consumer);
    periodic.track({ uncommittedOffsets: resolvedAt('5') });
    void periodic.flush();
    await new Promise(setImmediate);
    for (let tick = 0; tick < 5; tick += 1) void periodic.flush();
    expect(commits).toHaveLength(1);
    release();
    await periodic.flush();
    expect(commits.length).toBeLessThanOrEqual(2);
  });

  it('stops within its limit however long a commit waits', async () => {
    const { consumer } = slowConsumer();
    const periodic = new PeriodicCommits(consumer);
    periodic.track({ uncommittedOffsets: resolvedAt('5') });
    const started = Date.now();
    await periodic.stop(50);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('forgets a group it no longer reads once the consumer joins again or restarts', async () => {
    for (const event of ['consumer.group_join', 'consumer.crash']) {
      const { consumer, commits, emitter } = slowConsumer();
      const periodic = new PeriodicCommits(consumer);
      periodic.track({ uncommittedOffsets: resolvedAt('5') });
      emitter.emit(event);
      void periodic.flush();
      await new Promise(setImmediate);
      expect([event, commits]).toEqual([event, []]);
    }
  });
});
