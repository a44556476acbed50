import { allTopics, topicUsage } from '@payments/contracts';

import { kafkaAclsOf, topicsOperatorAcls } from './kafka-acls';

describe('kafkaAclsOf', () => {
  it("grants an app reading what it consumes, parking on those topics' dead letters, writing what it produces, and its own groups", () => {
    expect(kafkaAclsOf('pos-ingest')).toEqual([
      { resource: 'topic', name: 'business.events.v1', pattern: 'literal', operations: ['Read', 'Describe'] },
      { resource: 'topic', name: 'business.events.v1.dlq', pattern: 'literal', operations: ['Write', 'Describe'] },
      { resource: 'topic', name: 'pos.transactions.v1', pattern: 'literal', operations: ['Write', 'Describe'] },
      { resource: 'group', name: 'pos-ingest.', pattern: 'prefix', operations: ['Read', 'Describe'] },
    ]);
  });

  it('never lets an app create, alter or configure a topic, nor touch a group of another app', () => {
    for (const app of Object.keys(topicUsage) as (keyof typeof topicUsage)[]) {
      const grants = kafkaAclsOf(app);
      expect(
        grants
          .flatMap((grant) => grant.operations)
          .filter((operation) => !['Read', 'Write', 'Describe'].includes(operation)),
      ).toEqual([]);
      expect(grants.filter((grant) => grant.resource === 'group').map((grant) => grant.name)).toEqual([`${app}.`]);
    }
  });

  it('lets the topics operator create and configure the declared topics only', () => {
    const grants = topicsOperatorAcls(allTopics);
    expect(grants.map((grant) => grant.name)).toEqual(allTopics.map((topic) => topic.name));
    expect(new Set(grants.map((grant) => grant.pattern))).toEqual(new Set(['literal']));
  });
});
