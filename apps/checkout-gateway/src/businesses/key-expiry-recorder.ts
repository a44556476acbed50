import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { WorkerLoop } from '@payments/platform-bootstrap';

import { Env } from '../config/env';
import { BusinessKeysService } from './business-keys.service';

/** Writes the audit trail's `expired` entries as rolled key pairs reach the end of their grace. */
@Injectable()
export class KeyExpiryRecorder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: WorkerLoop;

  constructor(keys: BusinessKeysService, env: Env) {
    this.worker = new WorkerLoop(KeyExpiryRecorder.name, env.KEY_EXPIRY_POLL_MS, () => keys.recordExpiries());
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}
