import { MAX_AMOUNT_KOBO } from '@payments/contracts';
import fc from 'fast-check';

import { formatNaira } from '../hosted-page/naira';
import { koboFromNaira } from './naira-input';

describe('amounts typed in naira', () => {
  it('reads what people type, to the kobo', () => {
    expect(koboFromNaira('1500')).toBe('150000');
    expect(koboFromNaira(' 1,500.5 ')).toBe('150050');
    expect(koboFromNaira('₦1,500.50')).toBe('150050');
    expect(koboFromNaira('0.01')).toBe('1');
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', '0', '0.00', '-5', '1.234', '1e3', '1,50', '12,34,567', '1234,567', 'NaN', '1 500', '.5']) {
      expect([text, koboFromNaira(text)]).toEqual([text, undefined]);
    }
  });

  it('reads back every amount the pages show', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_AMOUNT_KOBO }), (kobo) => {
        expect(koboFromNaira(formatNaira(kobo.toString()))).toBe(kobo.toString());
      }),
    );
  });
});
