import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { canonicalInstant, IsInstant } from './instant';

class Range {
  @IsInstant()
  from!: string;
}

describe('canonicalInstant', () => {
  it('reads dates as midnight UTC, times without an offset as UTC, and offsets as given', () => {
    expect(canonicalInstant('2026-11-27')).toBe('2026-11-27T00:00:00.000Z');
    expect(canonicalInstant('2026-11-27T10:00:00')).toBe('2026-11-27T10:00:00.000Z');
    expect(canonicalInstant('2026-11-27T10:00:00.5Z')).toBe('2026-11-27T10:00:00.500Z');
    expect(canonicalInstant('2026-11-27T11:00:00+01:00')).toBe('2026-11-27T10:00:00.000Z');
  });

  it('names no instant for ISO 8601 forms JavaScript cannot read, days that do not exist, or years PostgreSQL cannot hold', () => {
    for (const text of [
      '2026-W47',
      '2026-W47-5',
      '19700101',
      '20261127T100000Z',
      '2026-331',
      '2025-02-30',
      '0000-01-01',
    ]) {
      expect([text, canonicalInstant(text)]).toEqual([text, null]);
    }
    expect(canonicalInstant(20261127)).toBeNull();
  });
});

describe('IsInstant', () => {
  const validated = (from: unknown) => {
    const range = plainToInstance(Range, { from });
    return { from: range.from, errors: validateSync(range).map((error) => error.property) };
  };

  it('passes the canonical instant on, so every reader sees the same one', () => {
    expect(validated('2026-11-27')).toEqual({ from: '2026-11-27T00:00:00.000Z', errors: [] });
  });

  it('refuses what names no instant, leaving the text as sent', () => {
    expect(validated('2026-W47')).toEqual({ from: '2026-W47', errors: ['from'] });
    expect(validated('2026-02-30T00:00:00.000Z')).toEqual({ from: '2026-02-30T00:00:00.000Z', errors: ['from'] });
  });
});
