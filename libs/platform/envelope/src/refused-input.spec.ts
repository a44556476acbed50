import { refusedInput } from './validation.pipe';

describe('refusedInput', () => {
  it('refuses a key named constructor at any depth, naming where it is', () => {
    expect(refusedInput({ serialNumber: { constructor: 'x', other: 'y' } }, '')).toEqual({
      field: 'serialNumber.constructor',
      reason: 'is not a field this API accepts',
    });
    expect(refusedInput({ constructor: 1 }, '')).toEqual({
      field: 'constructor',
      reason: 'is not a field this API accepts',
    });
  });

  it('refuses NUL characters in values and keys, and accepts ordinary input', () => {
    expect(refusedInput({ a: 'x\u0000' }, '')).toEqual({ field: 'a', reason: 'must not contain NUL characters' });
    expect(refusedInput({ metadata: { orderId: 'A1', items: [1, 'two'] } }, '')).toBeNull();
  });
});
