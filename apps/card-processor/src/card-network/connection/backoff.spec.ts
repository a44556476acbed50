import { Backoff } from './backoff';

describe('Backoff', () => {
  it('doubles the delay after each failure up to its ceiling', () => {
    const backoff = new Backoff(500, 30_000, () => 0.999_999);
    const delays = Array.from({ length: 9 }, () => backoff.next());
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('jitters each delay between half of it and all of it', () => {
    expect(new Backoff(500, 30_000, () => 0).next()).toBe(250);
    expect(new Backoff(500, 30_000, () => 0.5).next()).toBe(375);
    const random = new Backoff(1000, 30_000);
    for (let attempt = 0; attempt < 100; attempt++) {
      const delay = random.next();
      expect(delay).toBeGreaterThanOrEqual(Math.min(30_000, 1000 * 2 ** attempt) / 2);
      expect(delay).toBeLessThanOrEqual(30_000);
    }
  });

  it('starts again from the shortest delay after a reset', () => {
    const backoff = new Backoff(500, 30_000, () => 0.999_999);
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(500);
  });
});
