import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { WorkerLoop } from '@payments/platform-bootstrap';

import { SessionsRepository } from './sessions.repository';
import { SignInAttempts } from './sign-in-attempts';

const sweepEveryMs = 5 * 60_000;

/** Deletes ended sessions and sign-in windows: what anyone can make, by trying, is not kept. */
@Injectable()
export class DashboardSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: WorkerLoop;

  constructor(sessions: SessionsRepository, attempts: SignInAttempts) {
    this.worker = new WorkerLoop(DashboardSweeper.name, sweepEveryMs, async () => {
      await sessions.sweep();
      await attempts.sweep();
      return false;
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}
