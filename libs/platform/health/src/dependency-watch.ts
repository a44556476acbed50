import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { withinTimeout } from '@payments/platform-async';
import { KafkaAdmin } from '@payments/platform-kafka';
import { Metrics } from '@payments/platform-metrics';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';

export type Observation = { status: 'up' } | { status: 'down'; reason: string };
export type Dependency = 'postgresql' | 'kafka';

const probeTimeoutMs = 2000;
const probeIntervalMs = 10_000;

/**
 * Looks at PostgreSQL and the Kafka cluster every 10 s and says what it saw in
 * `platform_dependency_up`, which the alerts watch. Readiness does not wait on them: a slow
 * dependency is slow for every instance at once, and taking them all out of their Services
 * would answer partners with the ingress's page instead of the envelope.
 */
@Injectable()
export class DependencyWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly up: Gauge<'dependency'>;
  private readonly seen = new Map<Dependency, Observation>();
  private timer?: NodeJS.Timeout;
  /** Checks not yet settled, by dependency: a stalled one is not doubled. */
  private readonly unsettled = new Set<Dependency>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly kafka: KafkaAdmin,
    metrics: Metrics,
  ) {
    this.up = new Gauge({
      name: 'platform_dependency_up',
      help: 'Whether the last look at a dependency (postgresql, kafka) got an answer within 2 s',
      labelNames: ['dependency'],
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap(): void {
    void this.look();
    this.timer = setInterval(() => void this.look(), probeIntervalMs).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** What the last look at each dependency saw; nothing before the first look ends. */
  observations(): Partial<Record<Dependency, Observation>> {
    return Object.fromEntries(this.seen);
  }

  /** Looks at every dependency once; resolves when each look has ended. */
  async look(): Promise<void> {
    await Promise.all([
      this.probe('postgresql', () => this.dataSource.query('SELECT 1')),
      this.probe('kafka', () => this.kafka.reachable()),
    ]);
  }

  /**
   * One look at a dependency. A check that outlived its 2 s (a query stalled on a dead
   * connection) is not started again until it settles: each would hold one more of the pool's
   * connections every 10 s.
   */
  private async probe(dependency: Dependency, check: () => Promise<unknown>): Promise<void> {
    let seen: Observation;
    try {
      if (this.unsettled.has(dependency)) throw new Error(`the look before has had no answer either`);
      this.unsettled.add(dependency);
      const checking = check().finally(() => this.unsettled.delete(dependency));
      checking.catch(() => undefined);
      await withinTimeout(checking, probeTimeoutMs);
      seen = { status: 'up' };
    } catch (error) {
      seen = { status: 'down', reason: error instanceof Error ? error.message : String(error) };
    }
    this.seen.set(dependency, seen);
    this.up.set({ dependency }, seen.status === 'up' ? 1 : 0);
  }
}
