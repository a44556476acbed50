import { replicationOn, TopicSpec } from '@payments/contracts';
import { stringify } from 'yaml';

/** The Strimzi cluster the manifests in deploy/strimzi name, and the brokers it runs. */
export const strimziCluster = { name: 'payments-kafka', brokers: 3 } as const;

/**
 * The topic declarations as Strimzi's Topic Operator takes them (KafkaTopic resources), for a
 * cluster it runs: the same partitions, replication and configuration `npm run topics:apply`
 * gives any other cluster.
 */
export function strimziTopics(topics: readonly TopicSpec[]): object[] {
  const { replicationFactor, minInsyncReplicas } = replicationOn(strimziCluster.brokers);
  return topics.map((topic) => ({
    apiVersion: 'kafka.strimzi.io/v1beta2',
    kind: 'KafkaTopic',
    metadata: { name: topic.name, labels: { 'strimzi.io/cluster': strimziCluster.name } },
    spec: {
      topicName: topic.name,
      partitions: topic.partitions,
      replicas: replicationFactor,
      config: { ...topic.config, 'min.insync.replicas': String(minInsyncReplicas) },
    },
  }));
}

/** deploy/strimzi/kafka-topics.yaml as `npm run topics:manifests` writes it. */
export function strimziTopicsYaml(topics: readonly TopicSpec[]): string {
  const header =
    '# Generated from libs/contracts/src/topics.ts by `npm run topics:manifests`: edit the declarations, not this file.\n';
  return (
    header +
    strimziTopics(topics)
      .map((resource) => `---\n${stringify(resource)}`)
      .join('')
  );
}
