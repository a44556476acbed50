import fc from 'fast-check';

import { TransactionReferences } from './transaction-reference';

const key = 'bG9jYWwtb25seS1rZXktbmV2ZXItdXNlLWluLXByb2Q=';
const transaction = {
  pan: '5061460410120223210',
  sequenceNumber: '000042',
  amount: '150000',
  cardExpiryDate: '2812',
  iccData: '9F2608C0FFEE9F3602001A',
};

describe('a POS transaction reference', () => {
  const references = new TransactionReferences(key);

  it('is the same for the same transaction, and looks like every other id', () => {
    const reference = references.of('BUSINESS-1', transaction);
    expect(reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(references.of('BUSINESS-1', { ...transaction })).toBe(reference);
    expect(new TransactionReferences(key).of('BUSINESS-1', transaction)).toBe(reference);
  });

  it.each([
    ['another business', { business: 'BUSINESS-2' }],
    ['another card', { pan: '5061460410120223228' }],
    ['another sequence number', { sequenceNumber: '000043' }],
    ['another amount', { amount: '150001' }],
    ['another expiry', { cardExpiryDate: '2912' }],
    ['another use of the card (its counter and cryptogram)', { iccData: '9F2608C0FFEE9F3602001B' }],
  ])('differs for %s', (_case, change) => {
    const { business = 'BUSINESS-1', ...fields } = change as { business?: string };
    expect(references.of(business, { ...transaction, ...fields })).not.toBe(references.of('BUSINESS-1', transaction));
  });

  it('depends on the key: without it, no one can make or guess a reference', () => {
    expect(
      new TransactionReferences('b3RoZXItbG9jYWwta2V5LW5ldmVyLXVzZS1pbi1wcm9kLg==').of('BUSINESS-1', transaction),
    ).not.toBe(references.of('BUSINESS-1', transaction));
  });

  it('cannot be made ambiguous by moving text between fields', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        return (
          references.of('B', { ...transaction, sequenceNumber: `${a}`, amount: `${b}` }) !==
          references.of('B', { ...transaction, sequenceNumber: `${b}`, amount: `${a}` })
        );
      }),
    );
  });
});
