import { getMetadataStorage, IsInt, IsString, Min, validateSync } from 'class-validator';

import { cacheValidationMetadataLookups } from './validation-metadata-cache';

class Payment {
  @IsString()
  reference!: string;

  @IsInt()
  @Min(1)
  amount!: number;
}

const failedFields = (object: object) => validateSync(object).map((error) => error.property);

describe('cacheValidationMetadataLookups', () => {
  // Each test file has a global of its own, so this storage is this file's alone.
  const storage = getMetadataStorage();
  const lookup = jest.spyOn(storage, 'getTargetValidationMetadatas');
  cacheValidationMetadataLookups(storage);
  cacheValidationMetadataLookups(storage);
  const lookupsOf = (target: object) => lookup.mock.calls.filter(([called]) => called === target).length;

  beforeEach(() => lookup.mockClear());

  it('works out a class’s rules once, and validates with them as before', () => {
    expect(failedFields(Object.assign(new Payment(), { reference: 'R1', amount: 0 }))).toEqual(['amount']);
    expect(failedFields(Object.assign(new Payment(), { reference: 7, amount: 5 }))).toEqual(['reference']);
    expect(failedFields(Object.assign(new Payment(), { reference: 'R1', amount: 5 }))).toEqual([]);
    expect(lookupsOf(Payment)).toBe(1);
  });

  it('forgets what it knew once a class with rules is defined later, which may extend a known one', () => {
    validateSync(new Payment());
    const known = lookupsOf(Payment);
    class Refund extends Payment {
      @IsString()
      reason!: string;
    }
    expect(failedFields(Object.assign(new Refund(), { reference: 'R1', amount: 0, reason: 4 }))).toEqual([
      'reason',
      'amount',
    ]);
    validateSync(new Payment());
    expect(lookupsOf(Payment)).toBe(known + 1);
  });

  it('hands out lists no caller can change', () => {
    expect(Object.isFrozen(storage.getTargetValidationMetadatas(Payment, '', false, false))).toBe(true);
  });
});
