import { Topics } from '@payments/contracts';
import { PlatformEnv } from '@payments/platform-config';

import { BulkYield } from '../consumers/bulk-yield';
import { consumerRestartDelayMs } from '../consumers/consumer-crashes';
import { ConsumerFactory } from '../consumers/consumer-factory';
import { KafkaProducer } from '../producer';
import { CommandClient, CommandTimeoutError } from './command-client';

describe('CommandClient', () => {
  it('stamps each request with when its caller stops waiting, so it is never acted on later', async () => {
    const sent: { headers: Record<string, string> }[] = [];
    const producer = {
      send: async (_topic: string, message: { headers: Record<string, string> }) => void sent.push(message),
    } as unknown as KafkaProducer;
    const env = new PlatformEnv();
    const client = new CommandClient({} as ConsumerFactory, producer, new BulkYield(env));
    const before = Date.now();
    await expect(client.request(Topics.outletCommands, { any: 'command' }, 30)).rejects.toBeInstanceOf(
      CommandTimeoutError,
    );
    const deadline = Number(sent[0].headers['reply-deadline']);
    expect(deadline).toBeGreaterThanOrEqual(before + 30);
    expect(deadline).toBeLessThanOrEqual(Date.now());
  });

  it('answers a timeout, and crashes nothing, when the send itself outlasts the wait', async () => {
    // A broker that is down: kafkajs keeps retrying the send for longer than the caller waits.
    const producer = { send: () => new Promise((resolve) => setTimeout(resolve, 150)) } as unknown as KafkaProducer;
    const env = new PlatformEnv();
    const client = new CommandClient({} as ConsumerFactory, producer, new BulkYield(env));
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      await expect(client.request(Topics.outletCommands, { any: 'command' }, 20)).rejects.toBeInstanceOf(
        CommandTimeoutError,
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('starts its reply consumer again when kafkajs gives it up while every broker is away', async () => {
    jest.useFakeTimers();
    let crash: (event: { payload: { error: Error; restart: boolean } }) => void = () => undefined;
    let eachBatch: (payload: unknown) => Promise<void> = async () => undefined;
    const runs = jest.fn();
    const consumer = {
      events: { CRASH: 'consumer.crash' },
      on: (_event: string, listener: typeof crash) => void (crash = listener),
      connect: async () => undefined,
      subscribe: async () => undefined,
      run: async (config: { eachBatch: typeof eachBatch }) => {
        runs();
        eachBatch = config.eachBatch;
      },
      disconnect: async () => undefined,
    };
    // The ready marker comes back through the consumer, as it would from the replies topic.
    const producer = {
      send: async (_topic: string, message: { headers: Record<string, string> }) =>
        eachBatch({ batch: { messages: [{ headers: message.headers, value: Buffer.from('null') }] } }),
    } as unknown as KafkaProducer;
    const factory = { topicsPresent: true, create: async () => consumer } as unknown as ConsumerFactory;
    const client = new CommandClient(factory, producer, new BulkYield(new PlatformEnv()));
    const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      await client.onModuleInit();
      // What patched kafkajs reports when no broker accepts a connection to find the group's coordinator.
      crash({
        payload: {
          error: Object.assign(new Error('Failed to find group coordinator'), {
            name: 'KafkaJSGroupCoordinatorNotFound',
          }),
          restart: false,
        },
      });
      await jest.advanceTimersByTimeAsync(consumerRestartDelayMs);
      expect({ runs: runs.mock.calls.length, killed: kill.mock.calls.length }).toEqual({ runs: 2, killed: 0 });
    } finally {
      await client.onApplicationShutdown();
      kill.mockRestore();
      jest.useRealTimers();
    }
  });
});
