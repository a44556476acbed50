import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { WorkerLoop } from '@payments/platform-bootstrap';

import { Env } from '../config/env';
import { CheckoutsService } from './checkouts.service';

/** Ends checkouts nobody paid in time. Replicas skip each other's rows. */
@Injectable()
export class CheckoutExpirer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: WorkerLoop;

  constructor(checkouts: CheckoutsService, env: Env) {
    this.worker = new WorkerLoop(
      CheckoutExpirer.name,
      env.CHECKOUT_EXPIRY_POLL_MS,
      async () => (await checkouts.expireDue()) > 0,
    );
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}
