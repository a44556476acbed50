/** Time as the connection code sees it: injected, so tests can read and drive it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer | undefined): void;
}

/** Opaque: whatever the clock's setTimeout handed out, only ever given back to its clearTimeout. */
export type ClockTimer = unknown;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => {
    if (timer !== undefined) clearTimeout(timer as NodeJS.Timeout);
  },
};
