import { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { WorkerLoop } from '@payments/platform-bootstrap';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The sandbox rail working through what is due to it (payouts, refunds): the oldest due row,
 * locked so that replicas skip each other's, settled in its own transaction, until none is due.
 */
export abstract class RailSettler<Row> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: WorkerLoop;

  protected constructor(
    protected readonly dataSource: DataSource,
    pollIntervalMs: number,
  ) {
    this.worker = new WorkerLoop(new.target.name, pollIntervalMs, () => this.settleNext());
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  /** Settles the oldest due row; false when none is due. */
  async settleNext(): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const due = await this.lockNextDue(em);
      if (!due) return false;
      await this.settle(em, due);
      return true;
    });
  }

  protected abstract lockNextDue(em: EntityManager): Promise<Row | undefined>;

  protected abstract settle(em: EntityManager, due: Row): Promise<void>;
}
