import fc from 'fast-check';

import { IsoMessage } from '../codec';
import { FieldSpec, fieldSpecs } from '../fields';

const charsetChars: Record<FieldSpec['charset'], string> = {
  digits: '0123456789',
  text: Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join(''),
  track2: '0123456789=',
  hex: '0123456789ABCDEF',
};

const stringOf = (chars: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength, maxLength });

/** Any value the field can carry. */
function valueOf(spec: FieldSpec): fc.Arbitrary<string> {
  switch (spec.format) {
    case 'binary':
      return stringOf(charsetChars.hex, spec.length * 2, spec.length * 2);
    case 'amount':
      return fc.tuple(fc.constantFrom('C', 'D'), stringOf('0123456789', 1, spec.length)).map(([s, d]) => s + d);
    default:
      return stringOf(charsetChars[spec.charset], 0, Math.min(spec.length, 120));
  }
}

const numbers = Object.keys(fieldSpecs).map(Number);

/** Any message of the contract's fields. */
export const isoMessages: fc.Arbitrary<IsoMessage> = fc
  .tuple(
    stringOf('0123456789', 4, 4),
    fc
      .subarray(numbers)
      .chain((chosen) => fc.tuple(...chosen.map((n) => valueOf(fieldSpecs[n]).map((v) => [n, v] as const)))),
  )
  .map(([mti, entries]) => ({ mti, fields: new Map(entries) }));

/** The value as the field carries it: padded to a fixed field's length. */
export function asCarried(number: number, value: string): string {
  const spec = fieldSpecs[number];
  if (spec.format === 'amount') return value[0] + value.slice(1).padStart(spec.length, '0');
  if (spec.format !== 'fixed') return value;
  return spec.charset === 'digits' ? value.padStart(spec.length, '0') : value.padEnd(spec.length, ' ');
}
