import { accountTypeOf, posCardForNetwork } from './pos-card';

const card = {
  pan: '5060990000000000019',
  cardExpiryDate: '3012',
  pinBlock: 'null',
  track2Data: '5060990000000000019D30121010000000000',
  iccData: '9F26080102030405060708',
};

describe('a terminal’s card data as the network request carries it', () => {
  it('carries a chip card’s track 2, ICC data and sequence number', () => {
    expect(posCardForNetwork(card, { sequenceNumber: '001', accountType: 'Savings' })).toEqual({
      pan: card.pan,
      expiry: '3012',
      accountType: 'savings',
      entryMode: 'chip',
      sequenceNumber: '001',
      track2: card.track2Data,
      iccData: card.iccData,
    });
  });

  it('reads a stripe card without ICC data as the magnetic stripe', () => {
    expect(posCardForNetwork({ ...card, iccData: '' }, { sequenceNumber: '', accountType: '' })).toMatchObject({
      entryMode: 'stripe',
      iccData: undefined,
      sequenceNumber: undefined,
    });
  });

  it('leaves out what the network cannot carry rather than sending it malformed', () => {
    expect(
      posCardForNetwork(
        { ...card, track2Data: 'not track 2', iccData: 'xyz' },
        { sequenceNumber: '12345', accountType: '' },
      ),
    ).toMatchObject({ track2: undefined, iccData: undefined, sequenceNumber: undefined, entryMode: 'chip' });
  });

  it.each([
    ['Savings', 'savings'],
    ['10', 'savings'],
    ['Current', 'current'],
    ['cheque', 'current'],
    ['30', 'credit'],
    ['Credit', 'credit'],
    ['universal', 'default'],
  ])('reads account type %s as %s', (text, type) => {
    expect(accountTypeOf(text)).toBe(type);
  });
});
