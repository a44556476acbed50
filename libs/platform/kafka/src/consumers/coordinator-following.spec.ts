import { AssignerProtocol } from 'kafkajs';

// kafkajs's own consumer group, as patches/kafkajs+2.2.4.patch changes it: untyped internals.
/* eslint-disable @typescript-eslint/no-require-imports */
const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup');
const { createErrorFromCode } = require('kafkajs/src/protocol/error');
const { createLogger, LEVELS } = require('kafkajs/src/loggers');
/* eslint-enable @typescript-eslint/no-require-imports */

const errorCodes = { NOT_COORDINATOR: 16, LOAD_IN_PROGRESS: 14, REBALANCE_IN_PROGRESS: 27 } as const;
type Answer = keyof typeof errorCodes | 'ok';

const sessionTimeout = 15_000;

/** A broker as the group sees it: answers each heartbeat with the next of `answers`, then ok. */
class FakeCoordinator {
  joins = 0;
  heartbeats = 0;

  constructor(private readonly answers: Answer[] = []) {}

  isConnected(): boolean {
    return false; // its broker stopped: the offset manager must not swap the group's coordinator for it
  }

  async joinGroup() {
    this.joins += 1;
    return {
      generationId: 7,
      leaderId: 'leader',
      memberId: 'member',
      members: [],
      groupProtocol: 'RoundRobinAssigner',
    };
  }

  async syncGroup() {
    return {
      memberAssignment: AssignerProtocol.MemberAssignment.encode({
        version: 0,
        assignment: {},
        userData: Buffer.alloc(0),
      }),
    };
  }

  async offsetCommit(): Promise<void> {
    throw createErrorFromCode(errorCodes.NOT_COORDINATOR);
  }

  async heartbeat(): Promise<void> {
    this.heartbeats += 1;
    const answer = this.answers.shift() ?? 'ok';
    if (answer !== 'ok') throw createErrorFromCode(errorCodes[answer]);
  }
}

/**
 * A joined member whose coordinator lookups name `lookups` in turn (the last one from then on);
 * a lookup of `'fails'` gives up, as kafkajs's does once its retries are spent.
 */
async function joinedMember(first: FakeCoordinator, lookups: (FakeCoordinator | 'fails')[], emitted: string[] = []) {
  const named = [first, ...lookups];
  const cluster = {
    findGroupCoordinator: async () => {
      const found = named.length > 1 ? named.shift() : named[0];
      if (found === 'fails') throw new Error('Number of retries exceeded');
      return found;
    },
    refreshMetadata: async () => undefined,
    committedOffsets: () => ({}),
    findBroker: async () => first, // what the offset manager would swap a disconnected coordinator for
  };
  const group = new ConsumerGroup({
    retry: { retries: 0 },
    cluster,
    groupId: 'group',
    topics: [],
    topicConfigurations: [],
    logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => undefined }),
    instrumentationEmitter: { emit: (event: string) => emitted.push(event) },
    assigners: [],
    sessionTimeout,
    rebalanceTimeout: 60_000,
  });
  await group.joinAndSync();
  return group;
}

describe('a consumer follows its group coordinator (patches/kafkajs+2.2.4.patch)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stays in its generation while a stopping broker hands the group over', async () => {
    // As a broker under SIGTERM does: it answers NOT_COORDINATOR while lookups still name it,
    // and its successor answers NOT_COORDINATOR, then "loading", before it takes the group.
    const stopping = new FakeCoordinator(['NOT_COORDINATOR', 'NOT_COORDINATOR', 'NOT_COORDINATOR']);
    const successor = new FakeCoordinator(['NOT_COORDINATOR', 'LOAD_IN_PROGRESS', 'LOAD_IN_PROGRESS']);
    const emitted: string[] = [];
    const group = await joinedMember(stopping, [stopping, stopping, successor], emitted);
    const heartbeats = () => emitted.filter((event) => event.endsWith('heartbeat')).length;

    // The fetch loop that sent it is not held while the member follows the handover, and no
    // heartbeat is counted as answered until one is.
    await expect(group.heartbeat({ interval: 0 })).resolves.toBeUndefined();
    expect(heartbeats()).toBe(0);
    await jest.advanceTimersByTimeAsync(5000);
    await expect(group.heartbeat({ interval: 0 })).resolves.toBeUndefined();

    expect({ joins: stopping.joins + successor.joins, heartbeatsAnswered: successor.heartbeats }).toEqual({
      joins: 1,
      heartbeatsAnswered: 5,
    });
    expect(heartbeats()).toBe(1);
    expect(group.generationId).toBe(7);
  });

  it('sends no second heartbeat while one follows the coordinator', async () => {
    const stopping = new FakeCoordinator(['NOT_COORDINATOR']);
    const successor = new FakeCoordinator(Array<Answer>(20).fill('LOAD_IN_PROGRESS'));
    const group = await joinedMember(stopping, [successor]);

    await group.heartbeat({ interval: 0 });
    await jest.advanceTimersByTimeAsync(150);
    const followed = successor.heartbeats;
    for (let beat = 0; beat < 5; beat += 1) await group.heartbeat({ interval: 0 });
    expect({ followed, stopping: stopping.heartbeats, successor: successor.heartbeats }).toEqual({
      followed: 1,
      stopping: 1,
      successor: 1,
    });
  });

  it('looks again when a lookup fails, and asks the coordinator it had meanwhile', async () => {
    const stopping = new FakeCoordinator(['NOT_COORDINATOR', 'NOT_COORDINATOR', 'NOT_COORDINATOR']);
    const successor = new FakeCoordinator();
    const group = await joinedMember(stopping, ['fails', 'fails', successor]);

    await group.heartbeat({ interval: 0 });
    await jest.advanceTimersByTimeAsync(5000);
    expect({ stopping: stopping.heartbeats, successor: successor.heartbeats }).toEqual({ stopping: 3, successor: 1 });
  });

  it('keeps following after its broker disconnects, rather than being swapped for that broker', async () => {
    const stopping = new FakeCoordinator();
    const group = await joinedMember(stopping, []);
    await expect(group.offsetManager.getCoordinator()).resolves.toBe(group.coordinator);
    expect(group.coordinator.followsGroupCoordinator).toBe(true);
  });

  it('gives up after half a session, as NOT_COORDINATOR, at every heartbeat until it joins again', async () => {
    const gone = new FakeCoordinator(Array<Answer>(100).fill('NOT_COORDINATOR'));
    const group = await joinedMember(gone, []);

    await group.heartbeat({ interval: 0 });
    await jest.advanceTimersByTimeAsync(sessionTimeout / 2 - 1000);
    await expect(group.heartbeat({ interval: 0 })).resolves.toBeUndefined(); // still following
    await jest.advanceTimersByTimeAsync(2000);
    // A caller that swallowed one failure meets it again at the next heartbeat.
    for (let beat = 0; beat < 2; beat += 1) {
      await expect(group.heartbeat({ interval: 0 })).rejects.toMatchObject({ type: 'NOT_COORDINATOR_FOR_GROUP' });
    }
    await group.joinAndSync();
    await expect(group.heartbeat({ interval: 0 })).resolves.toBeUndefined();
  });

  it('gives up at half a session even while a lookup still hangs', async () => {
    const stopping = new FakeCoordinator(['NOT_COORDINATOR']);
    const group = await joinedMember(stopping, []);
    const cluster = group.cluster as { findGroupCoordinator: () => Promise<unknown> };
    cluster.findGroupCoordinator = () => new Promise(() => undefined); // kafkajs retrying a lookup for long

    await group.heartbeat({ interval: 0 });
    await jest.advanceTimersByTimeAsync(sessionTimeout / 2 + 100);
    await expect(group.heartbeat({ interval: 0 })).rejects.toMatchObject({ type: 'NOT_COORDINATOR_FOR_GROUP' });
  });

  it('ends an offset commit that follows the coordinator at half a session, even while a lookup hangs', async () => {
    const group = await joinedMember(new FakeCoordinator(), []);
    const cluster = group.cluster as { findGroupCoordinator: () => Promise<unknown> };
    cluster.findGroupCoordinator = () => new Promise(() => undefined);

    const commit = group.coordinator.offsetCommit({}) as Promise<void>;
    const failed = expect(commit).rejects.toMatchObject({ type: 'NOT_COORDINATOR_FOR_GROUP' });
    await jest.advanceTimersByTimeAsync(sessionTimeout / 2 - 500);
    await expect(commit).not.toHaveSettled();
    await jest.advanceTimersByTimeAsync(1000);
    await failed;
  });

  it('leaves every other answer to kafkajs: a rebalance is not followed', async () => {
    const coordinator = new FakeCoordinator(['REBALANCE_IN_PROGRESS']);
    const group = await joinedMember(coordinator, []);
    await expect(group.heartbeat({ interval: 0 })).rejects.toMatchObject({ type: 'REBALANCE_IN_PROGRESS' });
    expect(coordinator.heartbeats).toBe(1);
  });
});
