import { Logger } from '@nestjs/common';

/**
 * Runs `tick` every `intervalMs` until stopped, one tick at a time; a tick that reports more
 * work (returns true), or a wake() meanwhile, is followed at once by the next. stop() waits for
 * the running tick.
 */
export class WorkerLoop {
  private readonly logger: Logger;
  private running = false;
  private woken = false;
  private timer?: NodeJS.Timeout;
  private endWait?: () => void;
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

  /** Runs the next tick now rather than after the interval: there is work. */
  wake(): void {
    this.woken = true;
    clearTimeout(this.timer);
    this.endWait?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.endWait?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let more = false;
      try {
        more = await this.tick();
      } catch (error) {
        this.logger.error({ err: error }, 'tick failed; retrying after the interval');
      }
      if (!more && !this.woken && this.running) {
        await new Promise<void>((resolve) => {
          this.endWait = resolve;
          this.timer = setTimeout(resolve, this.intervalMs);
        });
      }
    }
  }
}
