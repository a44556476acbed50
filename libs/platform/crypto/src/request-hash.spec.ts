import { createHash } from 'node:crypto';

import { requestHash } from './request-hash';

describe('requestHash', () => {
  it('is the same whatever the order of keys, at every depth', () => {
    const first = requestHash('create', { amount: 100, customer: { name: 'Ada', email: 'a@b.ng' }, tags: ['x'] });
    const second = requestHash('create', { tags: ['x'], customer: { email: 'a@b.ng', name: 'Ada' }, amount: 100 });
    expect(second).toBe(first);
  });

  it('treats null and absent optional fields alike, also when nested', () => {
    expect(requestHash('create', { amount: 100, email: null, metadata: { note: undefined } })).toBe(
      requestHash('create', { amount: 100, metadata: {} }),
    );
  });

  it('tells apart other content, other array order and another kind of command', () => {
    const base = requestHash('transfer', { amount: '100', to: ['a', 'b'] });
    expect(requestHash('transfer', { amount: '101', to: ['a', 'b'] })).not.toBe(base);
    expect(requestHash('transfer', { amount: '100', to: ['b', 'a'] })).not.toBe(base);
    expect(requestHash('payout', { amount: '100', to: ['a', 'b'] })).not.toBe(base);
    expect(requestHash('transfer', { amount: '100', to: { 0: 'a', 1: 'b' } })).not.toBe(base);
  });

  it('keeps the fingerprints the ledger stored for flat commands before it was shared', () => {
    const request = { reference: 'T-1', amount: '2500', narration: undefined, from: 'w1' };
    const stored = createHash('sha256')
      .update(
        'transfer\n' +
          JSON.stringify([
            ['amount', '2500'],
            ['from', 'w1'],
            ['reference', 'T-1'],
          ]),
      )
      .digest('hex');
    expect(requestHash('transfer', request)).toBe(stored);
  });
});
