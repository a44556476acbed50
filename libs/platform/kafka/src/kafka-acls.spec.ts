import { allTopics, Topics, topicUsage } from '@payments/contracts';

import { dlqReplayOperatorAcls, kafkaAclsOf, topicsOperatorAcls } from './kafka-acls';

describe('kafkaAclsOf', () => {
  it("grants an app reading what it consumes, parking on those topics' dead letters, writing what it produces, and its own groups", () => {
    expect(kafkaAclsOf('pos-ingest')).toEqual([
      { resource: 'topic', name: 'business.events.v1', pattern: 'literal', operations: ['Read', 'Describe'] },
      { resource: 'topic', name: 'business.events.v1.dlq', pattern: 'literal', operations: ['Write', 'Describe'] },
      { resource: 'topic', name: 'pos.transactions.v1', pattern: 'literal', operations: ['Write', 'Describe'] },
      { resource: 'group', name: 'pos-ingest.', pattern: 'prefix', operations: ['Read', 'Describe'] },
      { resource: 'group', name: 'dlq-replay.business.events.v1', pattern: 'literal', operations: ['Describe'] },
    ]);
  });

  it("never lets an app create, alter or configure a topic, nor touch a group of another app's", () => {
    for (const app of Object.keys(topicUsage) as (keyof typeof topicUsage)[]) {
      const grants = kafkaAclsOf(app);
      expect(
        grants
          .flatMap((grant) => grant.operations)
          .filter((operation) => !['Read', 'Write', 'Describe'].includes(operation)),
      ).toEqual([]);
      // Its own groups, and a look at how far the dead-letter replay of each topic it consumes got.
      const replayGroups = topicUsage[app].consumes.map((key) => `dlq-replay.${Topics[key].name}`);
      expect(grants.filter((grant) => grant.resource === 'group')).toEqual([
        { resource: 'group', name: `${app}.`, pattern: 'prefix', operations: ['Read', 'Describe'] },
        ...replayGroups.map((name) => ({ resource: 'group', name, pattern: 'literal', operations: ['Describe'] })),
      ]);
    }
  });

  it('lets the topics operator create and configure the declared topics only', () => {
    const grants = topicsOperatorAcls(allTopics);
    expect(grants.map((grant) => grant.name)).toEqual(allTopics.map((topic) => topic.name));
    expect(new Set(grants.map((grant) => grant.pattern))).toEqual(new Set(['literal']));
  });

  it('lets the replay operator read parked messages and write them back, for the consumed topics only', () => {
    const consumed = [...new Set(Object.values(topicUsage).flatMap((usage) => usage.consumes))].map(
      (key) => Topics[key].name,
    );
    const grants = dlqReplayOperatorAcls();
    const named = (resource: string, operations: string[]) =>
      grants
        .filter((grant) => grant.resource === resource && grant.operations.join() === operations.join())
        .map((grant) => grant.name)
        .sort();
    expect(named('topic', ['Read', 'Describe'])).toEqual(consumed.map((name) => `${name}.dlq`).sort());
    expect(named('topic', ['Write', 'Describe'])).toEqual([...consumed].sort());
    expect(named('group', ['Read', 'Describe'])).toEqual(consumed.map((name) => `dlq-replay.${name}`).sort());
    expect(grants).toHaveLength(consumed.length * 3);
  });
});
