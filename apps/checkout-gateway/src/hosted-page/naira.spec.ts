import { formatNaira } from './naira';

describe('formatNaira', () => {
  it.each([
    ['1', '₦0.01'],
    ['100', '₦1.00'],
    ['1234567', '₦12,345.67'],
    ['100000000', '₦1,000,000.00'],
    ['99999999999999999999', '₦999,999,999,999,999,999.99'],
  ])('%s kobo reads %s', (kobo, text) => expect(formatNaira(kobo)).toBe(text));
});
