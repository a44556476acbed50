import { FieldSpec, fieldSpecs, inCharset } from './fields';

/** An ISO 8583 message: its MTI and its data elements by number, as the text each carries. */
export interface IsoMessage {
  mti: string;
  fields: ReadonlyMap<number, string>;
}

/** Bytes that are not a message of the contract, or a message the contract cannot carry. */
export class Iso8583Error extends Error {
  constructor(
    message: string,
    /** The field at fault, when one is. */
    readonly field?: number,
  ) {
    super(message);
    this.name = 'Iso8583Error';
  }
}

const mtiPattern = /^[0-9]{4}$/;

/**
 * Packs a message as the contract's packing says (ISO87APackager): the MTI, the bitmap (a
 * secondary one when any field 65 to 128 is set), then each field in order. A value a field
 * cannot hold (too long, or a character outside the field's set) is refused, never cut or padded
 * into something else.
 */
export function pack(message: IsoMessage): Buffer {
  if (!mtiPattern.test(message.mti)) throw new Iso8583Error(`MTI must be 4 digits`);
  const numbers = [...message.fields.keys()].sort((a, b) => a - b);
  const secondary = numbers.some((number) => number > 64);
  const bitmap = Buffer.alloc(secondary ? 16 : 8);
  if (secondary) bitmap[0] |= 0x80;
  const parts: string[] = [message.mti, ''];
  for (const number of numbers) {
    const spec = specOf(number);
    bitmap[(number - 1) >> 3] |= 0x80 >> ((number - 1) & 7);
    parts.push(packField(number, spec, message.fields.get(number)!));
  }
  parts[1] = bitmap.toString('hex').toUpperCase();
  return Buffer.from(parts.join(''), 'latin1');
}

function specOf(number: number): FieldSpec {
  const spec = fieldSpecs[number];
  if (!spec) throw new Iso8583Error(`field ${number} is not one the contract uses`, number);
  return spec;
}

function packField(number: number, spec: FieldSpec, value: string): string {
  const refuse = (why: string) => new Iso8583Error(`field ${number} (${spec.name}) ${why}`, number);
  switch (spec.format) {
    case 'fixed':
      if (value.length > spec.length) throw refuse(`is longer than ${spec.length}`);
      if (!inCharset(spec, value)) throw refuse(`must be ${spec.charset}`);
      return spec.charset === 'digits' ? value.padStart(spec.length, '0') : value.padEnd(spec.length, ' ');
    case 'll':
    case 'lll': {
      const digits = spec.format === 'll' ? 2 : 3;
      if (value.length > spec.length) throw refuse(`is longer than ${spec.length}`);
      if (!inCharset(spec, value)) throw refuse(`must be ${spec.charset}`);
      return String(value.length).padStart(digits, '0') + value;
    }
    case 'binary':
      if (value.length !== spec.length * 2 || !/^[0-9A-F]*$/.test(value)) {
        throw refuse(`must be ${spec.length} bytes as ${spec.length * 2} upper-case hex digits`);
      }
      return value;
    case 'amount':
      if (!/^[CD][0-9]+$/.test(value) || value.length > spec.length + 1) {
        throw refuse(`must be C or D and at most ${spec.length} digits`);
      }
      return value[0] + value.slice(1).padStart(spec.length, '0');
  }
}

/**
 * Reads a message packed as the contract says. Anything else (a short or long buffer, a length
 * that is not digits or exceeds its field, a field the contract does not use, a character
 * outside a field's set) is an Iso8583Error naming what is wrong: never another exception, and
 * never a message read on a guess.
 */
export function unpack(bytes: Buffer): IsoMessage {
  const text = bytes.toString('latin1');
  let at = 0;
  const take = (count: number, what: string, field?: number): string => {
    if (at + count > text.length) throw new Iso8583Error(`the message ends inside ${what}`, field);
    const taken = text.slice(at, at + count);
    at += count;
    return taken;
  };
  const mti = take(4, 'the MTI');
  if (!mtiPattern.test(mti)) throw new Iso8583Error('the MTI is not 4 digits');
  const primary = bitmapBytes(take(16, 'the bitmap'));
  const bitmap = primary[0] & 0x80 ? Buffer.concat([primary, bitmapBytes(take(16, 'the secondary bitmap'))]) : primary;
  const fields = new Map<number, string>();
  for (let number = 2; number <= bitmap.length * 8; number++) {
    if (!(bitmap[(number - 1) >> 3] & (0x80 >> ((number - 1) & 7)))) continue;
    const spec = specOf(number);
    fields.set(number, unpackField(number, spec, take));
  }
  if (at !== text.length) throw new Iso8583Error(`${text.length - at} bytes follow the last field`);
  return { mti, fields };
}

function bitmapBytes(hex: string): Buffer {
  if (!/^[0-9A-F]{16}$/.test(hex)) throw new Iso8583Error('a bitmap is not 16 upper-case hex digits');
  return Buffer.from(hex, 'hex');
}

function unpackField(
  number: number,
  spec: FieldSpec,
  take: (count: number, what: string, field?: number) => string,
): string {
  const what = `field ${number} (${spec.name})`;
  const refuse = (why: string) => new Iso8583Error(`${what} ${why}`, number);
  let value: string;
  switch (spec.format) {
    case 'fixed':
      value = take(spec.length, what, number);
      break;
    case 'll':
    case 'lll': {
      const prefix = take(spec.format === 'll' ? 2 : 3, `the length of ${what}`, number);
      if (!/^[0-9]+$/.test(prefix)) throw refuse('has a length that is not digits');
      const length = Number(prefix);
      if (length > spec.length) throw refuse(`says ${length} characters, more than its ${spec.length}`);
      value = take(length, what, number);
      break;
    }
    case 'binary':
      value = take(spec.length * 2, what, number);
      if (!/^[0-9A-F]+$/.test(value)) throw refuse('is not upper-case hex');
      return value;
    case 'amount':
      value = take(spec.length + 1, what, number);
      if (!/^[CD][0-9]+$/.test(value)) throw refuse('is not C or D and digits');
      return value;
  }
  if (!inCharset(spec, value)) throw refuse(`must be ${spec.charset}`);
  return value;
}
