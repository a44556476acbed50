import { randomBytes } from 'node:crypto';

import { PinSecurityModule, SoftwarePinModule, terminalPinBlock } from '@payments/platform-pin-security';

import { accountTypeOf, pinEntered, pinForNetwork, posCardForNetwork } from './pos-card';

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

describe('a terminal’s PIN as the network request carries it', () => {
  const hsm = new SoftwarePinModule(randomBytes(32).toString('base64'));
  const zonePinKey = randomBytes(16).toString('hex').toUpperCase();

  const withPin = async (pin = '1234') => {
    const terminalKey = await hsm.generateTerminalKey();
    return {
      ...card,
      pinBlock: terminalPinBlock(pin, card.pan, terminalKey.keyForTerminal),
      pinKeyUnderLmk: terminalKey.keyUnderLmk,
    };
  };

  it.each(['null', 'NULL', 'Null', '', '  '])('reads a PIN block of %j as no PIN entered', (pinBlock) => {
    expect(pinEntered({ pinBlock })).toBe(false);
  });

  it('sends no PIN block, and chip without PIN, when none was entered', async () => {
    const pin = await pinForNetwork(card, zonePinKey, hsm);
    expect(pin).toEqual({});
    expect(posCardForNetwork(card, { sequenceNumber: '001', accountType: '' })).toMatchObject({
      entryMode: 'chip',
      pinBlock: undefined,
    });
  });

  it('sends the block translated to the zone key, never the terminal’s, with chip and PIN', async () => {
    const entered = await withPin();
    const pin = await pinForNetwork(entered, zonePinKey, hsm);
    expect(pin).toEqual({ pinBlock: terminalPinBlock('1234', card.pan, zonePinKey) });
    const forNetwork = posCardForNetwork(
      entered,
      { sequenceNumber: '001', accountType: '' },
      (pin as { pinBlock: string }).pinBlock,
    );
    expect(forNetwork).toMatchObject({
      entryMode: 'chip-pin',
      pinBlock: terminalPinBlock('1234', card.pan, zonePinKey),
    });
    expect(forNetwork.pinBlock).not.toBe(entered.pinBlock);
    // A stripe read with a PIN is still a stripe read, its PIN block beside it.
    expect(
      posCardForNetwork({ ...entered, iccData: '' }, { sequenceNumber: '', accountType: '' }, 'AB'.repeat(8)),
    ).toMatchObject({
      entryMode: 'stripe',
      pinBlock: 'AB'.repeat(8),
    });
  });

  it('cannot verify a PIN without a module, a terminal key or a zone key, or under another key', async () => {
    const entered = await withPin();
    const underAnotherKey = { ...entered, pinKeyUnderLmk: (await hsm.generateTerminalKey()).keyUnderLmk };
    expect(
      await Promise.all([
        pinForNetwork(entered, zonePinKey, null),
        pinForNetwork({ ...entered, pinKeyUnderLmk: undefined }, zonePinKey, hsm),
        pinForNetwork(entered, undefined, hsm),
        pinForNetwork(underAnotherKey, zonePinKey, hsm),
        pinForNetwork({ ...entered, pinBlock: 'not a PIN block' }, zonePinKey, hsm),
        pinForNetwork(entered, zonePinKey, new SoftwarePinModule(randomBytes(32).toString('base64'))),
      ]),
    ).toEqual([
      { unverifiable: 'no-pin-security' },
      { unverifiable: 'no-terminal-key' },
      { unverifiable: 'no-zone-key' },
      { unverifiable: 'pin-block' },
      { unverifiable: 'pin-block' },
      { unverifiable: 'terminal-key' },
    ]);
  });

  it('lets a module’s other failures through, to be retried, rather than call the PIN unverifiable', async () => {
    const unreachable: PinSecurityModule = {
      generateTerminalKey: () => Promise.reject(new Error('the HSM did not answer')),
      translatePinBlock: () => Promise.reject(new Error('the HSM did not answer')),
    };
    await expect(pinForNetwork(await withPin(), zonePinKey, unreachable)).rejects.toThrow('the HSM did not answer');
  });
});
