import { deadLetterTopicOf, KafkaApp, Topics, TopicSpec, TopicUsage, topicUsage } from '@payments/contracts';
import { AclEntry, AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } from 'kafkajs';
import { stringify } from 'yaml';

import { strimziCluster } from './strimzi-topics';

type Operation = 'Read' | 'Write' | 'Describe' | 'Create' | 'Alter' | 'AlterConfigs' | 'DescribeConfigs';

/** One right of a principal, in the terms Kafka's authorizer and Strimzi's KafkaUser both use. */
export interface AclGrant {
  resource: 'topic' | 'group';
  name: string;
  pattern: 'literal' | 'prefix';
  operations: Operation[];
}

/** The Kafka user that applies the topics (npm run topics:apply): it may create and configure them, nothing else. */
export const topicsOperator = 'payments-topics';

function merged(grants: AclGrant[]): AclGrant[] {
  const byResource = new Map<string, AclGrant>();
  for (const grant of grants) {
    const key = `${grant.resource}:${grant.pattern}:${grant.name}`;
    const known = byResource.get(key);
    byResource.set(
      key,
      known ? { ...known, operations: [...new Set([...known.operations, ...grant.operations])] } : grant,
    );
  }
  return [...byResource.values()];
}

const topic = (spec: TopicSpec, operations: Operation[]): AclGrant => ({
  resource: 'topic',
  name: spec.name,
  pattern: 'literal',
  operations,
});

/**
 * Exactly what an app's principal may do, from its declared topic usage: read what it consumes
 * (in consumer groups named `<app>.…`), park on those topics' dead-letter topics, write what
 * it produces, and describe each of them (to check them at start and watch its lag). It may
 * also describe the replay group of each topic it consumes (`dlq-replay.<topic>`): its
 * dead-letter depth is what is parked beyond that group's offsets.
 */
export function kafkaAclsOf(app: KafkaApp): AclGrant[] {
  const { consumes, produces } = topicUsage[app] as TopicUsage;
  return merged([
    ...consumes.map((key) => topic(Topics[key], ['Read', 'Describe'])),
    ...consumes.map((key) => topic(deadLetterTopicOf(Topics[key]), ['Write', 'Describe'])),
    ...produces.map((key) => topic(Topics[key], ['Write', 'Describe'])),
    { resource: 'group', name: `${app}.`, pattern: 'prefix', operations: ['Read', 'Describe'] },
    ...consumes.map((key): AclGrant => ({
      resource: 'group',
      name: `dlq-replay.${Topics[key].name}`,
      pattern: 'literal',
      operations: ['Describe'],
    })),
  ]);
}

/** The Kafka user that replays parked messages (npm run dlq:replay): no app may, as apps only park. */
export const dlqReplayOperator = 'payments-dlq-replay';

/**
 * The replay operator's rights, for every topic an app consumes: read what is parked on its
 * dead-letter topic in the replay group `dlq-replay.<topic>`, and write it back to the topic.
 */
export function dlqReplayOperatorAcls(): AclGrant[] {
  const consumed = [...new Set(Object.values(topicUsage).flatMap((usage) => (usage as TopicUsage).consumes))];
  return merged([
    ...consumed.map((key) => topic(deadLetterTopicOf(Topics[key]), ['Read', 'Describe'])),
    ...consumed.map((key) => topic(Topics[key], ['Write', 'Describe'])),
    ...consumed.map((key): AclGrant => ({
      resource: 'group',
      name: `dlq-replay.${Topics[key].name}`,
      pattern: 'literal',
      operations: ['Read', 'Describe'],
    })),
  ]);
}

/** The topics operator's rights: create the declared topics, grow them and set their configuration. */
export function topicsOperatorAcls(topics: readonly TopicSpec[]): AclGrant[] {
  return topics.map((spec) => topic(spec, ['Create', 'Describe', 'Alter', 'AlterConfigs', 'DescribeConfigs']));
}

/**
 * Where Strimzi owns the topics (its KafkaTopic resources), the topics step only checks them
 * (`topics-apply.cjs --check`): it may describe the declared topics and nothing more.
 */
export function topicsCheckerAcls(topics: readonly TopicSpec[]): AclGrant[] {
  return topics.map((spec) => topic(spec, ['Describe', 'DescribeConfigs']));
}

const operationTypes: Record<Operation, AclOperationTypes> = {
  Read: AclOperationTypes.READ,
  Write: AclOperationTypes.WRITE,
  Describe: AclOperationTypes.DESCRIBE,
  Create: AclOperationTypes.CREATE,
  Alter: AclOperationTypes.ALTER,
  AlterConfigs: AclOperationTypes.ALTER_CONFIGS,
  DescribeConfigs: AclOperationTypes.DESCRIBE_CONFIGS,
};

/** The grants as kafkajs's createAcls takes them, for `User:<user>`. */
export function kafkajsAcls(user: string, grants: AclGrant[]): AclEntry[] {
  return grants.flatMap((grant) =>
    grant.operations.map((operation) => ({
      resourceType: grant.resource === 'topic' ? AclResourceTypes.TOPIC : AclResourceTypes.GROUP,
      resourceName: grant.name,
      resourcePatternType: grant.pattern === 'literal' ? ResourcePatternTypes.LITERAL : ResourcePatternTypes.PREFIXED,
      principal: `User:${user}`,
      host: '*',
      operation: operationTypes[operation],
      permissionType: AclPermissionTypes.ALLOW,
    })),
  );
}

/** One Strimzi KafkaUser: SCRAM-SHA-512 credentials (a Secret named after it) and its ACLs. */
function strimziUser(name: string, grants: AclGrant[]): object {
  return {
    apiVersion: 'kafka.strimzi.io/v1beta2',
    kind: 'KafkaUser',
    metadata: { name, labels: { 'strimzi.io/cluster': strimziCluster.name } },
    spec: {
      authentication: { type: 'scram-sha-512' },
      authorization: {
        type: 'simple',
        acls: grants.map((grant) => ({
          resource: { type: grant.resource, name: grant.name, patternType: grant.pattern },
          operations: grant.operations,
        })),
      },
    },
  };
}

/**
 * deploy/strimzi/users/kafka-users.yaml as `npm run topics:manifests` writes it: every app's user
 * and the two operators'. Strimzi owns the topics there, so the topics user only checks them.
 */
export function strimziUsersYaml(topics: readonly TopicSpec[]): string {
  const users = [
    ...(Object.keys(topicUsage) as KafkaApp[]).map((app) => strimziUser(app, kafkaAclsOf(app))),
    strimziUser(topicsOperator, topicsCheckerAcls(topics)),
    strimziUser(dlqReplayOperator, dlqReplayOperatorAcls()),
  ];
  const header =
    '# Generated from libs/contracts (topics.ts, topic-usage.ts) by `npm run topics:manifests`: edit the declarations, not this file.\n';
  return header + users.map((user) => `---\n${stringify(user)}`).join('');
}
