import { AuthorisationRequest } from '../card-network';
import { pack, unpack } from './codec';
import {
  authorisationMessage,
  networkManagementMessage,
  processingCodeParts,
  reconciliationMessage,
  reversalMessage,
  transmissionTime,
} from './messages';

const trace = {
  acquirerId: '111129',
  stan: '000042',
  rrn: '000000000777',
  transmittedAt: new Date('2026-03-09T23:30:05Z'),
};
const checkoutPurchase: AuthorisationRequest = {
  trace,
  kind: 'purchase',
  amount: '150000',
  pan: '5060990000000000019',
  expiry: '3012',
  accountType: 'default',
  entryMode: 'not-present',
  acceptor: {
    merchantId: 'PAY000000000001',
    terminalId: 'C0000001',
    nameAndLocation: 'Ada Stores             LAGOS        LANG',
    categoryCode: '5999',
  },
};

/** The message as the wire carries it: packed and read back by the codec. */
const onTheWire = (message: ReturnType<typeof authorisationMessage>) =>
  Object.fromEntries(unpack(pack(message)).fields);

describe('the messages the platform sends', () => {
  it('sends a checkout card as an e-commerce 0200, in naira, with local time in Lagos', () => {
    const message = authorisationMessage(checkoutPurchase);
    expect(message.mti).toBe('0200');
    expect(onTheWire(message)).toEqual({
      2: '5060990000000000019',
      3: '000000',
      4: '000000150000',
      7: '0309233005',
      11: '000042',
      // 23:30 UTC is 00:30 the next day in Lagos.
      12: '003005',
      13: '0310',
      14: '3012',
      18: '5999',
      22: '012',
      25: '59',
      32: '111129',
      37: '000000000777',
      41: 'C0000001',
      42: 'PAY000000000001',
      43: 'Ada Stores             LAGOS        LANG',
      49: '566',
    });
  });

  it('sends a POS chip card with its sequence number, track 2 (separator `=`), ICC data and PIN block', () => {
    const fields = onTheWire(
      authorisationMessage({
        ...checkoutPurchase,
        accountType: 'savings',
        entryMode: 'chip-pin',
        cardSequenceNumber: '1',
        track2: '5060990000000000019d30121010000000000f',
        iccData: '9f2608aabbccdd',
        pinBlock: '0123456789abcdef',
      }),
    );
    expect(fields).toMatchObject({
      3: '001000',
      22: '051',
      23: '001',
      25: '00',
      26: '12',
      35: '5060990000000000019=30121010000000000',
      52: '0123456789ABCDEF',
      55: '9F2608AABBCCDD',
    });
  });

  it('sends a refund with processing code 20 and the purchase it pays back in DE48', () => {
    const fields = onTheWire(
      authorisationMessage({ ...checkoutPurchase, kind: 'refund', originalRrn: '000000000700' }),
    );
    expect(fields).toMatchObject({ 3: '200000', 48: 'ORIG:000000000700' });
  });

  it('reverses with the original’s identity, a STAN of its own, and DE90 naming the original', () => {
    const original = { ...checkoutPurchase, acceptor: { merchantId: 'PAY000000000001', terminalId: 'C0000001' } };
    const reversal = {
      acquirerId: '111129',
      stan: '000043',
      rrn: trace.rrn,
      transmittedAt: new Date('2026-03-09T23:30:20Z'),
    };
    const first = reversalMessage({ original, trace: reversal, repeat: false });
    const repeat = reversalMessage({ original, trace: reversal, repeat: true });
    expect([first.mti, repeat.mti]).toEqual(['0420', '0421']);
    expect(onTheWire(first)).toEqual({
      2: '5060990000000000019',
      3: '000000',
      4: '000000150000',
      7: '0309233020',
      11: '000043',
      32: '111129',
      37: '000000000777',
      41: 'C0000001',
      42: 'PAY000000000001',
      49: '566',
      90: '0200' + '000042' + '0309233005' + '00000111129' + '00000000000',
    });
  });

  it('signs on, echoes and signs off with 0800 and DE70', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    expect(transmissionTime(at)).toBe('0102030405');
    for (const [kind, code] of [
      ['sign-on', '001'],
      ['echo', '301'],
      ['sign-off', '002'],
    ] as const) {
      expect(onTheWire(networkManagementMessage(kind, '000001', at))).toEqual({
        7: '0102030405',
        11: '000001',
        70: code,
      });
    }
  });

  it('sends a settlement date’s totals as a 0500, the net signed C, or D when refunds are more', () => {
    const totals = {
      purchases: { count: 3, amount: 450_000n },
      refunds: { count: 1, amount: 20_000n },
      reversedPurchases: { count: 1, amount: 7_500n },
      net: 430_000n,
    };
    const at = new Date('2026-03-10T00:05:00Z');
    const message = reconciliationMessage({
      trace: { acquirerId: '111129', stan: '000050', transmittedAt: at },
      settlementDate: '0309',
      totals,
    });
    expect(message.mti).toBe('0500');
    expect(onTheWire(message)).toEqual({
      7: '0310000500',
      11: '000050',
      15: '0309',
      50: '566',
      74: '0000000001',
      76: '0000000003',
      77: '0000000001',
      86: '0000000000020000',
      88: '0000000000450000',
      89: '0000000000007500',
      97: 'C0000000000430000',
    });
    const owed = reconciliationMessage({
      trace: { acquirerId: '111129', stan: '000051', transmittedAt: at },
      settlementDate: '0309',
      totals: { ...totals, purchases: { count: 0, amount: 0n }, net: -20_000n },
    });
    expect(onTheWire(owed)[97]).toBe('D0000000000020000');
  });

  it('reads back the kind and account type a processing code names', () => {
    expect(processingCodeParts('001000')).toEqual({ kind: 'purchase', accountType: 'savings' });
    expect(processingCodeParts('203000')).toEqual({ kind: 'refund', accountType: 'credit' });
    expect(processingCodeParts('000000')).toEqual({ kind: 'purchase', accountType: 'default' });
  });
});
