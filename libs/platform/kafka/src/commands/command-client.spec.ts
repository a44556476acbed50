import { Topics } from '@payments/contracts';
import { PlatformEnv } from '@payments/platform-config';

import { BulkYield } from '../consumers/bulk-yield';
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
});
