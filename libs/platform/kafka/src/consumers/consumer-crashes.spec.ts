import { Logger } from '@nestjs/common';
import {
  Consumer,
  KafkaJSConnectionError,
  KafkaJSGroupCoordinatorNotFound,
  KafkaJSSASLAuthenticationError,
} from 'kafkajs';

import {
  consumerRestartDelayMs,
  coordinatorMissingLimitMs,
  isClusterAway,
  recoverFromCrashes,
} from './consumer-crashes';

/** A consumer as kafkajs reports its crashes and group joins: the test emits them. */
function crashingConsumer() {
  const listeners = new Map<string, (event: { payload: { error?: Error; restart?: boolean } }) => void>();
  const consumer = {
    events: { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join' },
    on: (event: string, listener: (event: unknown) => void) => void listeners.set(event, listener),
  } as unknown as Consumer;
  return {
    consumer,
    crash: (error: Error, restart = false) => listeners.get('consumer.crash')!({ payload: { error, restart } }),
    join: () => listeners.get('consumer.group_join')!({ payload: {} }),
  };
}

// kafkajs's types declare these without the message they take.
type ErrorClass = new (message: string) => Error;
const coordinatorNotFound = () =>
  new (KafkaJSGroupCoordinatorNotFound as unknown as ErrorClass)('Failed to find group coordinator');
const credentialsRefused = () =>
  new (KafkaJSSASLAuthenticationError as unknown as ErrorClass)('SASL SCRAM SHA512 authentication failed');

const refused = () =>
  new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:19700', { code: 'ECONNREFUSED' });

describe('a consumer kafkajs gave up on', () => {
  let kill: jest.SpyInstance;
  const logger = { warn: jest.fn(), error: jest.fn() } as unknown as Logger;

  beforeEach(() => {
    jest.useFakeTimers();
    kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
  });
  afterEach(() => {
    kill.mockRestore();
    jest.useRealTimers();
  });

  it('is started again while every broker is away, until a start succeeds, and the process stays up', async () => {
    const { consumer, crash } = crashingConsumer();
    const start = jest.fn<Promise<void>, []>().mockRejectedValueOnce(refused()).mockResolvedValueOnce(undefined);
    recoverFromCrashes(consumer, start, { logger, stopping: () => false });

    // What patched kafkajs reports when no broker accepts a connection to find the group's coordinator.
    crash(refused());
    await jest.advanceTimersByTimeAsync(consumerRestartDelayMs);
    expect(start).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(consumerRestartDelayMs);
    await jest.advanceTimersByTimeAsync(10 * consumerRestartDelayMs);

    expect(start).toHaveBeenCalledTimes(2);
    expect(kill).not.toHaveBeenCalled();
  });

  it('starts it again while brokers name no coordinator, but stops the process once that has lasted too long', async () => {
    const { consumer, crash, join } = crashingConsumer();
    const start = jest.fn<Promise<void>, []>().mockResolvedValue(undefined);
    recoverFromCrashes(consumer, start, { logger, stopping: () => false });

    crash(coordinatorNotFound());
    await jest.advanceTimersByTimeAsync(coordinatorMissingLimitMs - consumerRestartDelayMs);
    join(); // it recovered: a later absence counts afresh
    crash(coordinatorNotFound());
    await jest.advanceTimersByTimeAsync(coordinatorMissingLimitMs - consumerRestartDelayMs);
    crash(coordinatorNotFound());
    expect(kill).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(2 * consumerRestartDelayMs);
    crash(coordinatorNotFound()); // every broker refuses the lookup: a group the principal is not granted

    expect(kill).toHaveBeenCalledWith(process.pid, 'SIGTERM');
    expect(start).toHaveBeenCalledTimes(3);
  });

  it('stops the process when it failed for another reason, so the failure shows', () => {
    const { consumer, crash } = crashingConsumer();
    const start = jest.fn<Promise<void>, []>();
    recoverFromCrashes(consumer, start, { logger, stopping: () => false });

    crash(credentialsRefused());

    expect(kill).toHaveBeenCalledWith(process.pid, 'SIGTERM');
    expect(start).not.toHaveBeenCalled();
  });

  it('leaves alone a crash kafkajs restarts itself, and any crash while the app shuts down', async () => {
    let stopping = false;
    const { consumer, crash } = crashingConsumer();
    const start = jest.fn<Promise<void>, []>();
    recoverFromCrashes(consumer, start, { logger, stopping: () => stopping });

    crash(refused(), true);
    stopping = true;
    crash(coordinatorNotFound());
    crash(new Error('anything'));
    await jest.advanceTimersByTimeAsync(10 * consumerRestartDelayMs);

    expect({ starts: start.mock.calls.length, kills: kill.mock.calls.length }).toEqual({ starts: 0, kills: 0 });
  });
});

describe('which crashes say only that the cluster is away', () => {
  it.each([
    ['a refused connection', refused()],
    ['a refused connection wrapped', new Error('wrapped', { cause: refused() })],
  ])('%s', (_case, error) => expect(isClusterAway(error)).toBe(true));

  it.each([
    // Brokers answered: no coordinator may be a refused group (recoverFromCrashes gives it a while).
    ['no coordinator found', coordinatorNotFound()],
    ['refused credentials', credentialsRefused()],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'offset')")],
  ])('not %s', (_case, error) => expect(isClusterAway(error)).toBe(false));
});
