import { BeforeApplicationShutdown, Controller, Get, HttpStatus, Injectable } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { withinTimeout } from '@payments/platform-async';
import { DomainError, SuccessMessage } from '@payments/platform-envelope';
import { KafkaAdmin } from '@payments/platform-kafka';
import { DataSource } from 'typeorm';

type CheckResult = { status: 'up' } | { status: 'down'; reason: string };

const probeTimeoutMs = 2000;

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
    private readonly dataSource: DataSource,
    private readonly kafka: KafkaAdmin,
    private readonly shutdown: ShutdownState,
  ) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  @SuccessMessage('live')
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  /** The database and the Kafka cluster both answer. */
  @Get('ready')
  @SuccessMessage('ready')
  async ready(): Promise<Record<string, CheckResult>> {
    const [database, kafka] = await Promise.all([
      probe(() => this.dataSource.query('SELECT 1')),
      probe(() => this.kafka.ping()),
    ]);
    const checks = { database, kafka };
    if (this.shutdown.draining || database.status === 'down' || kafka.status === 'down') {
      const message = this.shutdown.draining ? 'shutting down' : 'not ready';
      throw new DomainError('SERVICE_UNAVAILABLE', message, HttpStatus.SERVICE_UNAVAILABLE, { checks });
    }
    return checks;
  }
}

async function probe(check: () => Promise<unknown>): Promise<CheckResult> {
  try {
    await withinTimeout(check(), probeTimeoutMs);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', reason: error instanceof Error ? error.message : String(error) };
  }
}
