import { BeforeApplicationShutdown, Controller, Get, HttpStatus, Injectable } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { withinTimeout } from '@payments/platform-async';
import { SchemaState } from '@payments/platform-database';
import { DomainError, SuccessMessage } from '@payments/platform-envelope';
import { KafkaAdmin, KafkaConsumers } from '@payments/platform-kafka';

import { DependencyWatch, Observation } from './dependency-watch';

/** Read until the schema is first seen current, at start; never after. */
const schemaReadTimeoutMs = 2000;

type CheckResult = { status: 'up' } | { status: 'down'; reason: string };

/** Readiness turns false as soon as shutdown starts, so load balancers stop routing to us. */
@Injectable()
export class ShutdownState implements BeforeApplicationShutdown {
  draining = false;

  beforeApplicationShutdown(): void {
    this.draining = true;
  }
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly schema: SchemaState,
    private readonly kafka: KafkaAdmin,
    private readonly shutdown: ShutdownState,
    private readonly dependencies: DependencyWatch,
    private readonly consumers: KafkaConsumers,
  ) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  @SuccessMessage('live')
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  /**
   * What this instance can do: not draining, its schema has every migration it ships, its
   * Kafka topics are there as declared, and its consumers joined their groups once they could. PostgreSQL and the brokers answering are reported as
   * last seen (DependencyWatch), and watched by the alerts: a blip in either must not empty
   * every Service at once.
   */
  @Get('ready')
  @SuccessMessage('ready')
  async ready(): Promise<Record<string, CheckResult | Observation>> {
    const checks = {
      schema: await this.schemaCheck(),
      topics: this.kafka.topicsPresent
        ? ({ status: 'up' } as const)
        : ({ status: 'down', reason: this.kafka.topicsProblem() } as const),
      ...(this.consumers.joinProblem && { consumers: { status: 'down', reason: this.consumers.joinProblem } as const }),
    };
    const seen = this.dependencies.observations();
    const report = {
      ...checks,
      ...(seen.postgresql && { database: seen.postgresql }),
      ...(seen.kafka && { kafka: seen.kafka }),
    };
    if (this.shutdown.draining || Object.values(checks).some((check) => check.status === 'down')) {
      const message = this.shutdown.draining ? 'shutting down' : 'not ready';
      throw new DomainError('SERVICE_UNAVAILABLE', message, HttpStatus.SERVICE_UNAVAILABLE, { checks: report });
    }
    return report;
  }

  private async schemaCheck(): Promise<CheckResult> {
    try {
      const behind = await withinTimeout(this.schema.behind(), schemaReadTimeoutMs);
      return behind === null ? { status: 'up' } : { status: 'down', reason: behind };
    } catch (error) {
      return { status: 'down', reason: `the schema could not be read: ${(error as Error).message}` };
    }
  }
}
