import { decodeTime, isValid } from 'ulid';

import { newUlid } from './ids';

describe('newUlid', () => {
  it('makes valid ULIDs carrying the current time', () => {
    const before = Date.now();
    const id = newUlid();
    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
    expect(decodeTime(id)).toBeLessThanOrEqual(Date.now());
  });

  it('draws the random part across the whole alphabet without repeats, past pool refills', () => {
    const ids = Array.from({ length: 20_000 }, () => newUlid());
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const id of ids) for (const character of id.slice(10)) counts.set(character, (counts.get(character) ?? 0) + 1);
    // 320,000 characters over 32 symbols: 10,000 each expected; a skewed source would stray far.
    expect(counts.size).toBe(32);
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(600);
  });
});
