import { Logger } from '@nestjs/common';

/**
 * Runs `tick` every `intervalMs` until stopped, one tick at a time; a tick that reports more
 * work (returns true) is followed at once by the next. stop() waits for the running tick.
 */
export class WorkerLoop {
  private readonly logger: Logger;
  private running = false;
  private timer?: NodeJS.Timeout;
  private wake?: () => void;
  private loop?: Promise<void>;

  constructor(
    name: string,
    private readonly intervalMs: number,
    private readonly tick: () => Promise<boolean>,
  ) {
    this.logger = new Logger(name);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let more = false;
      try {
        more = await this.tick();
      } catch (error) {
        this.logger.error({ err: error }, 'tick failed; retrying after the interval');
      }
      if (!more && this.running) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.timer = setTimeout(resolve, this.intervalMs);
        });
      }
    }
  }
}
