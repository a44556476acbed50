/**
 * The data elements the card network contract uses (shared/spec/card-network.md, "Packing"), as
 * jPOS's ISO87APackager defines them: ISO 8583:1987 in ASCII. Where jPOS accepts anything (a
 * numeric field with letters, hex that is not hex), the platform is stricter: what it sends is
 * exactly what the field says, and what it reads that is not is refused, never guessed at.
 */

/**
 * How a field is written:
 * - `fixed`: exactly `length` characters; `digits` right-aligned and zero-padded, `text`
 *   left-aligned and space-padded.
 * - `ll` / `lll`: 2 or 3 ASCII digits of length, then up to `length` characters.
 * - `binary`: `length` bytes as 2 × `length` upper-case hex characters, no length prefix.
 * - `amount`: `C` or `D`, then 16 digits (zero-padded).
 */
export type FieldFormat = 'fixed' | 'll' | 'lll' | 'binary' | 'amount';

/**
 * What a field may hold: `digits`; `text`, printable ASCII (space to `~`); `track2`, digits and
 * the `=` separator; `hex`, upper-case hex digits (ICC data, carried as text).
 */
export type FieldCharset = 'digits' | 'text' | 'track2' | 'hex';

export interface FieldSpec {
  format: FieldFormat;
  /** Characters for fixed and variable fields, bytes for binary ones, digits after the sign for amounts. */
  length: number;
  charset: FieldCharset;
  name: string;
}

const fixedDigits = (length: number, name: string): FieldSpec => ({ format: 'fixed', length, charset: 'digits', name });
const fixedText = (length: number, name: string): FieldSpec => ({ format: 'fixed', length, charset: 'text', name });
const binary = (name: string): FieldSpec => ({ format: 'binary', length: 8, charset: 'hex', name });

/** The contract's fields by number; a message with any other field set is refused either way. */
export const fieldSpecs: Readonly<Record<number, FieldSpec>> = {
  2: { format: 'll', length: 19, charset: 'digits', name: 'primary account number' },
  3: fixedDigits(6, 'processing code'),
  4: fixedDigits(12, 'amount, transaction'),
  7: fixedDigits(10, 'transmission date and time'),
  11: fixedDigits(6, 'system trace audit number'),
  12: fixedDigits(6, 'time, local transaction'),
  13: fixedDigits(4, 'date, local transaction'),
  14: fixedDigits(4, 'date, expiration'),
  15: fixedDigits(4, 'date, settlement'),
  18: fixedDigits(4, 'merchant category code'),
  22: fixedDigits(3, 'point of service entry mode'),
  23: fixedDigits(3, 'card sequence number'),
  25: fixedDigits(2, 'point of service condition code'),
  26: fixedDigits(2, 'point of service PIN capture code'),
  32: { format: 'll', length: 11, charset: 'digits', name: 'acquiring institution id' },
  35: { format: 'll', length: 37, charset: 'track2', name: 'track 2 data' },
  37: fixedText(12, 'retrieval reference number'),
  38: fixedText(6, 'authorisation code'),
  39: fixedText(2, 'response code'),
  41: fixedText(8, 'card acceptor terminal id'),
  42: fixedText(15, 'card acceptor id'),
  43: fixedText(40, 'card acceptor name and location'),
  48: { format: 'lll', length: 999, charset: 'text', name: 'additional data, private' },
  49: fixedText(3, 'currency code, transaction'),
  50: fixedText(3, 'currency code, settlement'),
  52: binary('PIN data'),
  55: { format: 'lll', length: 999, charset: 'hex', name: 'ICC data' },
  64: binary('message authentication code'),
  70: fixedDigits(3, 'network management information code'),
  74: fixedDigits(10, 'credits, number'),
  76: fixedDigits(10, 'debits, number'),
  77: fixedDigits(10, 'debits, reversal number'),
  86: fixedDigits(16, 'credits, amount'),
  88: fixedDigits(16, 'debits, amount'),
  89: fixedDigits(16, 'debits, reversal amount'),
  90: fixedDigits(42, 'original data elements'),
  97: { format: 'amount', length: 16, charset: 'digits', name: 'amount, net settlement' },
  128: binary('message authentication code 2'),
};

const charsets: Record<FieldCharset, RegExp> = {
  digits: /^[0-9]*$/,
  text: /^[\x20-\x7e]*$/,
  track2: /^[0-9=]*$/,
  hex: /^[0-9A-F]*$/,
};

/** Whether `value` holds only what the field's charset allows. */
export const inCharset = (spec: FieldSpec, value: string) => charsets[spec.charset].test(value);
