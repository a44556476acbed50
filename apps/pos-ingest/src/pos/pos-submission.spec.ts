import { PosSubmissionRequest } from '@payments/contracts';
import { ValidationFailedError } from '@payments/platform-envelope';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import fc from 'fast-check';

import { posSubmission } from './pos-submission';

/** What class-validator alone says of a body with no NUL in it. */
const validatorAccepts = (body: Record<string, unknown>) =>
  validateSync(plainToInstance(PosSubmissionRequest, body), { forbidUnknownValues: true }).length === 0;

const accepted = (body: unknown) => {
  try {
    posSubmission(body);
    return true;
  } catch (error) {
    if (error instanceof ValidationFailedError) return false;
    throw error;
  }
};

describe('posSubmission', () => {
  // Lengths around each limit, in plain characters, astral ones (two UTF-16 units) and empty.
  const text = (max: number) =>
    fc.oneof(
      fc.constantFrom(0, 1, max - 1, max, max + 1).map((length) => 'A'.repeat(length)),
      fc.constantFrom(max / 2, max / 2 + 1, max).map((length) => '😀'.repeat(length)),
      fc.string({ unit: 'grapheme', maxLength: 80 }).filter((value) => !value.includes('\u0000')),
    );
  const field = (max: number) =>
    fc.oneof(
      text(max),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(fc.string(), { maxLength: 2 }),
    );

  it('accepts exactly the bodies class-validator accepts', () => {
    fc.assert(
      fc.property(field(64), field(16_384), fc.option(fc.string({ maxLength: 5 })), (serialNumber, data, extra) => {
        const body: Record<string, unknown> = {
          serialNumber,
          data,
          ...(extra === null ? {} : { extra: extra.replaceAll('\u0000', '') }),
        };
        return accepted(body) === validatorAccepts(body);
      }),
      { numRuns: 2000 },
    );
  });

  it('names each bad field as class-validator words it', () => {
    const failure = (() => {
      try {
        posSubmission({ serialNumber: 'S'.repeat(65), data: 7 });
      } catch (error) {
        return error as ValidationFailedError;
      }
    })();
    expect(failure?.errors).toEqual([
      { field: 'serialNumber', messages: ['serialNumber must be shorter than or equal to 64 characters'] },
      { field: 'data', messages: expect.arrayContaining(['data must be a string']) },
    ]);
  });

  it('refuses a NUL anywhere in the body, even in a field it does not read', () => {
    expect(accepted({ serialNumber: 'SN-1', data: 'AAAA', note: 'a\u0000b' })).toBe(false);
    expect(accepted({ serialNumber: 'SN-1', data: 'AAAA' })).toBe(true);
  });
});
