import { TopicSpec } from '@payments/contracts';
import { Admin, ConfigResourceTypes } from 'kafkajs';

/**
 * Creates every topic that is missing, with its partition count and configuration, grows the
 * partition count of one that has fewer than declared, and applies a declared configuration
 * to a topic that differs from it (for example one created before its retention was declared).
 * Safe to run from many apps at once.
 */
export async function ensureTopics(admin: Admin, topics: readonly TopicSpec[]): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((topic) => !existing.has(topic.name));
  if (missing.length > 0) {
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic: topic.name,
          numPartitions: topic.partitions,
          replicationFactor: -1,
          configEntries: Object.entries(topic.config ?? {}).map(([name, value]) => ({ name, value })),
        })),
      });
    } catch (error) {
      // Another app created them first: that is the outcome we wanted.
      if ((error as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw error;
    }
  }
  const present = topics.filter((topic) => existing.has(topic.name));
  if (present.length === 0) return;
  const metadata = await admin.fetchTopicMetadata({ topics: present.map((topic) => topic.name) });
  const grow = metadata.topics.flatMap((actual) => {
    const declared = present.find((topic) => topic.name === actual.name);
    return declared && actual.partitions.length < declared.partitions
      ? [{ topic: actual.name, count: declared.partitions }]
      : [];
  });
  if (grow.length > 0) await admin.createPartitions({ topicPartitions: grow });
  await applyDeclaredConfigs(
    admin,
    present.filter((topic) => topic.config),
  );
}

async function applyDeclaredConfigs(admin: Admin, topics: readonly TopicSpec[]): Promise<void> {
  if (topics.length === 0) return;
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: topics.map((topic) => ({
      type: ConfigResourceTypes.TOPIC,
      name: topic.name,
      configNames: Object.keys(topic.config!),
    })),
  });
  const differing = topics.filter((topic) => {
    const actual = resources.find((resource) => resource.resourceName === topic.name)?.configEntries ?? [];
    return Object.entries(topic.config!).some(
      ([name, value]) => actual.find((entry) => entry.configName === name)?.configValue !== value,
    );
  });
  if (differing.length === 0) return;
  // AlterConfigs sets a topic's whole dynamic configuration: the declared one is all of it.
  await admin.alterConfigs({
    validateOnly: false,
    resources: differing.map((topic) => ({
      type: ConfigResourceTypes.TOPIC,
      name: topic.name,
      configEntries: Object.entries(topic.config!).map(([name, value]) => ({ name, value })),
    })),
  });
}
