// kafkajs's cluster, as patches/kafkajs+2.2.4.patch changes it: untyped internals.
/* eslint-disable @typescript-eslint/no-require-imports */
const Cluster = require('kafkajs/src/cluster');
const { KafkaJSConnectionError } = require('kafkajs/src/errors');
const { createLogger, LEVELS } = require('kafkajs/src/loggers');
/* eslint-enable @typescript-eslint/no-require-imports */

/** A broker of the pool: refusing connections (stopped), or answering the coordinator lookup with node 2. */
function broker(state: 'stopped' | 'up') {
  const calls = { connects: 0, lookups: 0 };
  return {
    calls,
    isConnected: () => false,
    connect: async () => {
      calls.connects += 1;
      if (state === 'stopped') {
        throw new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:19700', {
          code: 'ECONNREFUSED',
        });
      }
    },
    disconnect: async () => undefined,
    findGroupCoordinator: async () => {
      calls.lookups += 1;
      return { coordinator: { nodeId: 2, host: '127.0.0.1', port: 19710 } };
    },
  };
}

/** A cluster whose pool holds `brokers` as nodes 1, 2, 3, retrying a few times at once. */
function clusterOf(brokers: ReturnType<typeof broker>[]) {
  const cluster = new Cluster({
    logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => undefined }),
    brokers: ['127.0.0.1:19700'],
    retry: { retries: 2, initialRetryTime: 1, maxRetryTime: 5 },
  });
  cluster.brokerPool.brokers = Object.fromEntries(brokers.map((node, index) => [index + 1, node]));
  // Metadata as last seen: a refresh cannot reach anyone either.
  cluster.refreshMetadata = async () => {
    throw new KafkaJSConnectionError('Connection error: connect ECONNREFUSED', { code: 'ECONNREFUSED' });
  };
  return cluster;
}

describe('a group coordinator lookup (patches/kafkajs+2.2.4.patch)', () => {
  it('fails as a refused connection, which a consumer restarts after, when every broker is down', async () => {
    const brokers = [broker('stopped'), broker('stopped'), broker('stopped')];
    const lookup = clusterOf(brokers).findGroupCoordinator({ groupId: 'group' });

    // kafkajs restarts a consumer after its retries ran out; "coordinator not found" would end it for good.
    await expect(lookup).rejects.toMatchObject({
      name: 'KafkaJSNumberOfRetriesExceeded',
      cause: { name: 'KafkaJSConnectionError', code: 'ECONNREFUSED' },
    });
    // Every broker was tried on each of the three attempts.
    expect(brokers.map((node) => node.calls.connects)).toEqual([3, 3, 3]);
  });

  it('asks a broker that is up when the others are down', async () => {
    const brokers = [broker('stopped'), broker('up'), broker('stopped')];
    await expect(clusterOf(brokers).findGroupCoordinator({ groupId: 'group' })).resolves.toBe(brokers[1]);
    expect(brokers[1].calls.lookups).toBe(1);
  });
});
