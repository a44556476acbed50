import { Injectable } from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';

/** How recently a command must have been seen for bulk streams to give way. */
const activeWindowMs = 1000;
/** Rests shorter than this are saved up: a timer costs more than it would give back. */
const shortestRestMs = 2;
/** A rest never runs longer: a consumer must heartbeat well within its session timeout. */
const longestRestMs = 1000;

/**
 * Bulk streams give way to requests someone is waiting for. While this process has sent or
 * answered a command within the last second, each bulk message (or batch) is followed by a rest
 * as long as it took, times KAFKA_BULK_YIELD, and every bulk handler of the process waits it out.
 * A backlog then drains with part of the machine and leaves the rest to card payments and
 * transfers; with no commands about, bulk runs flat out. Consumer groups keep the streams apart
 * on the broker; this keeps them apart on the cores they share.
 */
@Injectable()
export class BulkYield {
  private lastCommandAt = Number.NEGATIVE_INFINITY;
  private owedMs = 0;
  private resting?: Promise<void>;
  private readonly ratio: number;

  constructor(env: PlatformEnv) {
    this.ratio = env.KAFKA_BULK_YIELD;
  }

  /** A command was sent or answered: latency-sensitive work is about. */
  commandSeen(): void {
    this.lastCommandAt = performance.now();
  }

  /** True while this process sends or answers commands: latency-sensitive work shares the cores. */
  commandsAbout(): boolean {
    return this.ratio > 0 && performance.now() - this.lastCommandAt <= activeWindowMs;
  }

  /** After bulk work that took `spentMs`: resolves when the bulk handlers may go on. */
  async after(spentMs: number): Promise<void> {
    if (!this.commandsAbout()) {
      this.owedMs = 0;
      return this.resting;
    }
    this.owedMs += spentMs * this.ratio;
    if (!this.resting && this.owedMs >= shortestRestMs) {
      const rest = Math.min(this.owedMs, longestRestMs);
      this.owedMs = 0;
      this.resting = new Promise<void>((resolve) => setTimeout(resolve, rest)).finally(() => {
        this.resting = undefined;
      });
    }
    return this.resting;
  }
}
