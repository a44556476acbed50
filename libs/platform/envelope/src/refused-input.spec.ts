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

describe('refusedInput and text that is not well-formed Unicode', () => {
  it('refuses a lone surrogate in a value or a key, high or low, and names the field', () => {
    expect(refusedInput({ email: 'a@b\ud800.com' }, '')).toEqual({
      field: 'email',
      reason: 'must be well-formed Unicode text (it holds a lone surrogate)',
    });
    expect(refusedInput({ metadata: { ['k\udfff']: 'v' } }, '')?.field).toBe('metadata');
    expect(refusedInput(['ok', 'x\udc00'], 'tags')?.field).toBe('tags.1');
  });

  it('accepts characters outside the Basic Multilingual Plane, written as surrogate pairs', () => {
    expect(refusedInput({ name: 'Ada 😀 𝔘', comment: '\ud83d\ude00' }, '')).toBeNull();
  });
});
