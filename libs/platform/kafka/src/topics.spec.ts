import { TopicSpec } from '@payments/contracts';
import { Admin } from 'kafkajs';

import { applyTopics } from './topics';

/** A cluster of three as kafkajs's admin sees it; `createTopics` runs each scripted step in turn. */
function cluster(createSteps: ((names: string[]) => void)[]) {
  const topics = new Set<string>();
  const asked: string[][] = [];
  const admin = {
    describeCluster: async () => ({ brokers: [{ nodeId: 1 }, { nodeId: 2 }, { nodeId: 3 }] }),
    listTopics: async () => [...topics],
    createTopics: async ({ topics: wanted }: { topics: { topic: string }[] }) => {
      const names = wanted.map((topic) => topic.topic);
      asked.push(names);
      (createSteps.shift() ?? ((created: string[]) => created.forEach((name) => topics.add(name))))(names);
      return true;
    },
    fetchTopicMetadata: async ({ topics: names }: { topics: string[] }) => ({
      topics: names.map((name) => ({ name, partitions: [{ partitionId: 0, leader: 1, replicas: [1, 2, 3] }] })),
    }),
  };
  return { admin: admin as unknown as Admin, topics, asked };
}

const declared: TopicSpec[] = [
  { name: 'a.v1', partitions: 1 },
  { name: 'b.v1', partitions: 1 },
  { name: 'c.v1', partitions: 1 },
];

const timedOut = () =>
  Object.assign(new Error('Request CreateTopics(key: 19, version: 3) timed out'), {
    name: 'KafkaJSRequestTimeoutError',
  });

describe('applyTopics on a broker slow to answer', () => {
  it('asks again after a request timeout, and creates only what the broker had not created meanwhile', async () => {
    const { admin, topics, asked } = cluster([
      (names) => {
        topics.add(names[0]);
        throw timedOut();
      },
    ]);
    const changes = await applyTopics(admin, declared);
    expect(asked).toEqual([
      ['a.v1', 'b.v1', 'c.v1'],
      ['b.v1', 'c.v1'],
    ]);
    expect([...topics].sort()).toEqual(['a.v1', 'b.v1', 'c.v1']);
    expect(changes.created).toEqual(['a.v1', 'b.v1', 'c.v1']);
  });

  it('gives up after five timeouts, and on any other error at once', async () => {
    const fiveTimeouts = cluster(
      Array.from({ length: 5 }, () => () => {
        throw timedOut();
      }),
    );
    await expect(applyTopics(fiveTimeouts.admin, declared)).rejects.toThrow('timed out');
    expect(fiveTimeouts.asked).toHaveLength(5);
    const refused = cluster([
      () => {
        throw Object.assign(new Error('Topic authorization failed'), { type: 'TOPIC_AUTHORIZATION_FAILED' });
      },
    ]);
    await expect(applyTopics(refused.admin, declared)).rejects.toThrow('authorization');
    expect(refused.asked).toHaveLength(1);
  });
});
