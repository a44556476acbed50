export {}; // a module: its helpers are its own, not the global script scope

// kafkajs's producer, as patches/kafkajs+2.2.4.patch changes it: untyped internals.
/* eslint-disable @typescript-eslint/no-require-imports */
const sendMessages = require('kafkajs/src/producer/sendMessages');
const { createErrorFromCode } = require('kafkajs/src/protocol/error');
const createRetry = require('kafkajs/src/retry');
const { createLogger, LEVELS } = require('kafkajs/src/loggers');
/* eslint-enable @typescript-eslint/no-require-imports */

const notLeader = 6; // NOT_LEADER_FOR_PARTITION

interface SentPartition {
  partition: string;
  messages: { value: string }[];
}

/** A broker that answers every produce, or refuses its first as no longer the partitions' leader. */
function broker(nodeId: number, refuseFirst = false) {
  const sent: string[] = [];
  let refused = !refuseFirst;
  return {
    nodeId,
    sent,
    produce: async ({ topicData }: { topicData: { topic: string; partitions: SentPartition[] }[] }) => {
      if (!refused) {
        refused = true;
        throw createErrorFromCode(notLeader);
      }
      const partitions = topicData.flatMap(({ topic, partitions }) =>
        partitions.map(({ partition, messages }) => ({ topic, partition, messages })),
      );
      sent.push(...partitions.flatMap(({ messages }) => messages.map((message) => message.value)));
      return {
        topics: topicData.map(({ topic, partitions }) => ({
          topicName: topic,
          partitions: partitions.map(({ partition }) => ({
            partition: Number(partition),
            errorCode: 0,
            baseOffset: '0',
          })),
        })),
      };
    },
  };
}

/** Two partitions led by brokers 1 and 2; a metadata refresh finds broker 1 leading both, as after broker 2 stopped. */
function clusterOf(brokers: ReturnType<typeof broker>[]) {
  const leaders: Record<string, number> = { 0: 1, 1: 2 };
  return {
    targetTopics: new Set<string>(),
    addMultipleTargetTopics: async () => undefined,
    refreshMetadataIfNecessary: async () => undefined,
    refreshMetadata: async () => void (leaders[1] = 1),
    isConnected: () => true,
    findTopicPartitionMetadata: () => [
      { partitionId: 0, leader: leaders[0] },
      { partitionId: 1, leader: leaders[1] },
    ],
    findLeaderForPartitions: (_topic: string, partitions: string[]) =>
      partitions.reduce<Record<number, string[]>>((byLeader, partition) => {
        (byLeader[leaders[partition]] ??= []).push(partition);
        return byLeader;
      }, {}),
    findBroker: async ({ nodeId }: { nodeId: string }) =>
      brokers.find((candidate) => candidate.nodeId === Number(nodeId)),
  };
}

const eosManager = {
  isTransactional: () => false,
  getSequence: () => 0,
  updateSequence: () => undefined,
  acquireBrokerLock: async () => undefined,
  releaseBrokerLock: async () => undefined,
  getProducerId: () => -1,
  getProducerEpoch: () => 0,
};

describe('a produce retried after a partition changed leader', () => {
  it('sends the partition again to its new leader, though that broker already answered for another', async () => {
    const [first, second] = [broker(1), broker(2, true)];
    const logger = createLogger({ level: LEVELS.NOTHING, logCreator: () => () => undefined });
    const send = sendMessages({
      logger,
      cluster: clusterOf([first, second]),
      partitioner: ({ message }: { message: { partition: number } }) => message.partition,
      eosManager,
      retrier: createRetry({ retries: 3, initialRetryTime: 1, maxRetryTime: 5 }),
    });

    const answers = await send({
      acks: -1,
      timeout: 1000,
      topicMessages: [
        {
          topic: 'partner.events.v1',
          messages: [
            { partition: 0, value: 'a' },
            { partition: 1, value: 'b' },
          ],
        },
      ],
    });

    expect({ first: first.sent.sort(), second: second.sent, answered: answers.length }).toEqual({
      first: ['a', 'b'],
      second: [],
      answered: 2,
    });
  });
});
