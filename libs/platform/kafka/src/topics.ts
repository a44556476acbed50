import { replicationOn, TopicSpec } from '@payments/contracts';
import { Admin, ConfigResourceTypes, ConfigSource } from 'kafkajs';

/** What `applyTopics` did, and what it cannot do, one line each. */
export interface TopicChanges {
  created: string[];
  grown: string[];
  reconfigured: string[];
  /** Settings only an operator can change (a topic's replication factor needs a reassignment). */
  notes: string[];
}

/** A topic's declared configuration on this cluster: its own settings and its in-sync minimum. */
function declaredConfig(topic: TopicSpec, minInsyncReplicas: number): Record<string, string> {
  return { ...topic.config, 'min.insync.replicas': String(minInsyncReplicas) };
}

/**
 * Makes the cluster match the declarations: creates what is missing (partitions, replication
 * for the cluster's size, configuration), grows a topic with fewer partitions than declared,
 * and sets each declared setting that differs, leaving every other setting of the topic as an
 * operator left it. Safe to run again and from several places at once.
 */
export async function applyTopics(admin: Admin, topics: readonly TopicSpec[]): Promise<TopicChanges> {
  const changes: TopicChanges = { created: [], grown: [], reconfigured: [], notes: [] };
  const { replicationFactor, minInsyncReplicas } = replicationOn((await admin.describeCluster()).brokers.length);
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((topic) => !existing.has(topic.name));
  if (missing.length > 0) {
    await createMissing(admin, missing, replicationFactor, minInsyncReplicas);
    changes.created.push(...missing.map((topic) => topic.name));
    await untilLed(admin, changes.created);
  }
  const present = topics.filter((topic) => existing.has(topic.name));
  if (present.length === 0) return changes;
  const metadata = await admin.fetchTopicMetadata({ topics: present.map((topic) => topic.name) });
  const grow: { topic: string; count: number }[] = [];
  for (const actual of metadata.topics) {
    const declared = present.find((topic) => topic.name === actual.name)!;
    if (actual.partitions.length < declared.partitions) grow.push({ topic: actual.name, count: declared.partitions });
    const copies = actual.partitions[0]?.replicas.length ?? 0;
    if (copies < replicationFactor) {
      changes.notes.push(
        `${actual.name} keeps ${copies} cop${copies === 1 ? 'y' : 'ies'} of each partition, ${replicationFactor} declared: reassign its partitions (kafka-reassign-partitions) to add replicas`,
      );
    }
  }
  if (grow.length > 0) await admin.createPartitions({ topicPartitions: grow });
  changes.grown.push(...grow.map((each) => each.topic));
  changes.reconfigured.push(...(await applyDeclaredConfigs(admin, present, minInsyncReplicas)));
  return changes;
}

const createAttempts = 5;

/**
 * Creates the topics not on the cluster yet. A broker busy creating many partitions (one that
 * has just started) may not answer within the request timeout and create them all the same: so
 * after a timeout, or another run creating some first, the cluster is asked again what is still
 * missing, and only that is created.
 */
async function createMissing(
  admin: Admin,
  missing: readonly TopicSpec[],
  replicationFactor: number,
  minInsyncReplicas: number,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const existing = new Set(await admin.listTopics());
    const topics = missing.filter((topic) => !existing.has(topic.name));
    if (topics.length === 0) return;
    try {
      await admin.createTopics({
        waitForLeaders: false,
        topics: topics.map((topic) => ({
          topic: topic.name,
          numPartitions: topic.partitions,
          replicationFactor,
          configEntries: Object.entries(declaredConfig(topic, minInsyncReplicas)).map(([name, value]) => ({
            name,
            value,
          })),
        })),
      });
      return;
    } catch (error) {
      const { type, name, originalError } = error as {
        type?: string;
        name?: string;
        originalError?: { name?: string };
      };
      const timedOut = [name, originalError?.name].includes('KafkaJSRequestTimeoutError');
      const askAgain = type === 'TOPIC_ALREADY_EXISTS' || timedOut;
      if (!askAgain || attempt >= createAttempts) throw error;
    }
  }
}

/**
 * Waits until every partition of the new topics has a leader. kafkajs's own wait gives up when
 * a broker has not heard of a topic yet (UNKNOWN_TOPIC_OR_PARTITION), which a busy broker
 * answers for a moment after creating many: that is retried here too.
 */
async function untilLed(admin: Admin, names: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: names });
      if (topics.every((topic) => topic.partitions.length > 0 && topic.partitions.every((p) => p.leader >= 0))) return;
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (type !== 'UNKNOWN_TOPIC_OR_PARTITION' && type !== 'LEADER_NOT_AVAILABLE') throw error;
    }
    if (Date.now() > deadline) throw new Error(`topics without leaders after ${timeoutMs} ms: ${names.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Sets the declared settings that differ. kafkajs has no incremental AlterConfigs, and a plain
 * one replaces a topic's whole dynamic configuration: so the topic's other dynamic settings
 * (an operator's, say) are read first and written back with the declared ones.
 */
async function applyDeclaredConfigs(
  admin: Admin,
  topics: readonly TopicSpec[],
  minInsyncReplicas: number,
): Promise<string[]> {
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: topics.map((topic) => ({ type: ConfigResourceTypes.TOPIC, name: topic.name })),
  });
  const alterations = topics.flatMap((topic) => {
    const entries = resources.find((resource) => resource.resourceName === topic.name)?.configEntries ?? [];
    const declared = declaredConfig(topic, minInsyncReplicas);
    const differs = Object.entries(declared).some(
      ([name, value]) => entries.find((entry) => entry.configName === name)?.configValue !== value,
    );
    if (!differs) return [];
    const dynamic = Object.fromEntries(
      entries
        .filter((entry) => entry.configSource === ConfigSource.TOPIC_CONFIG && entry.configValue !== null)
        .map((entry) => [entry.configName, entry.configValue]),
    );
    const configEntries = Object.entries({ ...dynamic, ...declared }).map(([name, value]) => ({ name, value }));
    return [{ type: ConfigResourceTypes.TOPIC, name: topic.name, configEntries }];
  });
  if (alterations.length > 0) await admin.alterConfigs({ validateOnly: false, resources: alterations });
  return alterations.map((alteration) => alteration.name);
}

/**
 * What keeps an app from using the cluster's topics, one line each (empty when nothing does): a
 * declared topic that is missing, or has fewer partitions than declared. Apps create nothing.
 */
export async function topicShortfalls(admin: Admin, topics: readonly TopicSpec[]): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((topic) => !existing.has(topic.name));
  const present = topics.filter((topic) => existing.has(topic.name));
  const metadata =
    present.length > 0
      ? await admin.fetchTopicMetadata({ topics: present.map((topic) => topic.name) })
      : { topics: [] };
  const short = metadata.topics.flatMap((actual) => {
    const declared = present.find((topic) => topic.name === actual.name)!;
    return actual.partitions.length < declared.partitions
      ? [`${actual.name} has ${actual.partitions.length} partitions, ${declared.partitions} declared`]
      : [];
  });
  return [...missing.map((topic) => `${topic.name} is missing`), ...short];
}
