/** Why `withinTimeout` gave up: the work may still finish, and its answer is dropped. */
export class TimedOutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimedOutError';
  }
}

/**
 * `work`'s answer, or a TimedOutError once `ms` have passed. A late answer or failure is
 * dropped, never reported as unhandled, and the timer never outlives the race.
 */
export function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimedOutError(ms)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
