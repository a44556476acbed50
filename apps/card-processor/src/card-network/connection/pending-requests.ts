import { IsoMessage } from '../iso8583/codec';
import { Clock, ClockTimer } from './clock';

/**
 * The MTI that answers a request: the function digit one up, the origin digit back to 0 (0200 →
 * 0210, 0420 and its repeat 0421 → 0430, 0800 → 0810). Undefined for a message that is not an
 * acquirer's request or advice, which nothing answers.
 */
export function answerMtiOf(mti: string): string | undefined {
  const match = /^([0-9]{2})([02])([01])$/.exec(mti);
  return match ? `${match[1]}${Number(match[2]) + 1}0` : undefined;
}

/**
 * What pairs an answer with its request: DE11 and DE37 together (the contract's "Connection").
 * As they travel: the STAN zero-padded, the RRN without the padding a short one gets. 0800 and
 * 0500 carry no DE37, nor do their answers.
 */
export function matchKeyOf(message: IsoMessage): string {
  const stan = message.fields.get(11) ?? '';
  const rrn = message.fields.get(37) ?? '';
  return `${stan.padStart(6, '0')}|${rrn.trimEnd()}`;
}

interface Waiting {
  answerMti: string;
  connection: number;
  timer: ClockTimer;
  resolve(answer: IsoMessage): void;
  reject(error: Error): void;
}

/** Requests written and waiting for their answers, by match key, each with its deadline. */
export class PendingRequests {
  private readonly waiting = new Map<string, Waiting>();
  private readonly perConnection = new Map<number, number>();
  private drainedListeners: (() => void)[] = [];

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.waiting.size;
  }

  has(key: string): boolean {
    return this.waiting.has(key);
  }

  /** Requests waiting that were written on `connection`. */
  countOn(connection: number): number {
    return this.perConnection.get(connection) ?? 0;
  }

  /** Waits for the answer to the request under `key`; after `timeoutMs`, rejects with `timedOut()`. */
  wait(
    key: string,
    answerMti: string,
    connection: number,
    timeoutMs: number,
    timedOut: () => Error,
  ): Promise<IsoMessage> {
    if (this.waiting.has(key)) throw new Error(`a request with match key ${key} is already waiting`);
    return new Promise<IsoMessage>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => this.take(key)?.reject(timedOut()), timeoutMs);
      this.waiting.set(key, { answerMti, connection, timer, resolve, reject });
      this.perConnection.set(connection, this.countOn(connection) + 1);
    });
  }

  /** Hands `answer` to the request it answers; false when none waits for it. */
  settle(answer: IsoMessage): boolean {
    const key = matchKeyOf(answer);
    // Same STAN and RRN, but not this request's answer (an 0810 to an 0200): not a match.
    if (this.waiting.get(key)?.answerMti !== answer.mti) return false;
    this.take(key)!.resolve(answer);
    return true;
  }

  /** Rejects every request written on `connection`. */
  failOn(connection: number, error: () => Error): void {
    for (const [key, waiting] of [...this.waiting]) {
      if (waiting.connection === connection) this.take(key)!.reject(error());
    }
  }

  failAll(error: () => Error): void {
    for (const key of [...this.waiting.keys()]) this.take(key)!.reject(error());
  }

  /** Resolves once nothing is waiting. */
  drained(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainedListeners.push(resolve));
  }

  private take(key: string): Waiting | undefined {
    const waiting = this.waiting.get(key);
    if (!waiting) return undefined;
    this.waiting.delete(key);
    this.clock.clearTimeout(waiting.timer);
    this.perConnection.set(waiting.connection, this.countOn(waiting.connection) - 1);
    if (this.waiting.size === 0) {
      const listeners = this.drainedListeners;
      this.drainedListeners = [];
      for (const listener of listeners) listener();
    }
    return waiting;
  }
}
