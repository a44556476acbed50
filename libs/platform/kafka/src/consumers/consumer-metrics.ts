import { Injectable, Logger } from '@nestjs/common';
import { deadLetterTopicOf, TopicSpec } from '@payments/contracts';
import { Metrics } from '@payments/platform-metrics';
import { Counter, Gauge } from 'prom-client';

import { KafkaAdmin } from '../kafka-admin';

const refreshEveryMs = 15_000;

/**
 * The ages the oldest message not yet handled is placed between: a minute, five, a quarter of an
 * hour, an hour, three hours. Coarse on purpose: each step is one request to the brokers, and
 * an alert needs to know which side of an hour a topic's backlog is, not the second.
 */
export const lagAgeSteps = [60, 300, 900, 3600, 10_800];

interface Watched {
  groupId: string;
  topics: TopicSpec[];
}

/**
 * Consumer health in /metrics: how far each group is behind on each topic, how many messages
 * wait on each topic's dead-letter topic, and what happened to each message handled. Lag and
 * DLQ depth are read from the broker every 15 s, so they stay true while a partition is stuck.
 */
@Injectable()
export class ConsumerMetrics {
  private readonly logger = new Logger(ConsumerMetrics.name);
  private readonly lag: Gauge<'group' | 'topic'>;
  private readonly lagAge: Gauge<'group' | 'topic'>;
  private readonly dlqDepth: Gauge<'topic'>;
  private readonly handled: Counter<'topic' | 'outcome'>;
  private timer?: NodeJS.Timeout;

  constructor(
    metrics: Metrics,
    private readonly admin: KafkaAdmin,
  ) {
    const registers = [metrics.registry];
    this.lag = new Gauge({
      name: 'kafka_consumer_lag',
      help: 'Messages not yet processed by a consumer group, per topic',
      labelNames: ['group', 'topic'],
      registers,
    });
    this.lagAge = new Gauge({
      name: 'kafka_consumer_lag_age_seconds',
      help: `How old the oldest message a consumer group has not handled is, at least: the largest of ${lagAgeSteps.join(', ')} s it is older than (0: none older than the first)`,
      labelNames: ['group', 'topic'],
      registers,
    });
    this.dlqDepth = new Gauge({
      name: 'kafka_dlq_depth',
      help: 'Messages parked on a dead-letter topic and not yet replayed',
      labelNames: ['topic'],
      registers,
    });
    this.handled = new Counter({
      name: 'kafka_messages_handled_total',
      help: 'Messages handled, by outcome (applied, parked, or expired: a request nobody waited for any more)',
      labelNames: ['topic', 'outcome'],
      registers,
    });
  }

  applied(topic: string, outcome: 'applied' | 'parked' | 'expired'): void {
    this.handled.inc({ topic, outcome });
  }

  watch(groups: Watched[]): void {
    if (groups.length === 0) return;
    // A refresh slower than the interval (a slow broker) is not doubled by the next.
    let refreshing = false;
    const refresh = async () => {
      if (refreshing) return;
      refreshing = true;
      await this.refresh(groups)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'could not read consumer lag'))
        .finally(() => (refreshing = false));
    };
    void refresh();
    this.timer = setInterval(() => void refresh(), refreshEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * The largest step of lagAgeSteps that some partition's next message to handle is older than:
   * a message older than a step lies before the first offset written since then.
   */
  private async oldestUnhandledAge(
    topic: string,
    ends: { partition: number; low: number; high: number }[],
    position: (partition: number, low: number) => number,
  ): Promise<number> {
    let age = 0;
    for (const step of lagAgeSteps) {
      const since = await this.admin.offsetsAt(topic, Date.now() - step * 1000);
      const older = ends.some(
        ({ partition, low, high }) => position(partition, low) < Math.min(high, since.get(partition) ?? high),
      );
      if (!older) break;
      age = step;
    }
    return age;
  }

  private async refresh(groups: Watched[]): Promise<void> {
    for (const { groupId, topics } of groups) {
      const committed = await this.admin.committedOffsets(
        groupId,
        topics.map((topic) => topic.name),
      );
      for (const topic of topics) {
        const ends = await this.admin.endOffsets(topic.name);
        // A committed offset below the log's start (retention deleted what followed it) counts from the start.
        const position = (partition: number, low: number) =>
          Math.max(low, committed.get(`${topic.name}:${partition}`) ?? low);
        const behind = ends.reduce(
          (sum, { partition, high, low }) => sum + Math.max(0, high - position(partition, low)),
          0,
        );
        this.lag.set({ group: groupId, topic: topic.name }, behind);
        const age = behind === 0 ? 0 : await this.oldestUnhandledAge(topic.name, ends, position);
        this.lagAge.set({ group: groupId, topic: topic.name }, age);
        const parked = deadLetterTopicOf(topic).name;
        const replayed = await this.admin.committedOffsets(`dlq-replay.${topic.name}`, [parked]);
        const depth = (await this.admin.endOffsets(parked)).reduce(
          (sum, { partition, high, low }) =>
            sum + Math.max(0, high - Math.max(low, replayed.get(`${parked}:${partition}`) ?? 0)),
          0,
        );
        this.dlqDepth.set({ topic: parked }, depth);
      }
    }
  }
}
