import fc from 'fast-check';

import { Iso8583Error, IsoMessage, pack, unpack } from './codec';
import { frame, FrameReader } from './framing';
import { asCarried, isoMessages } from './testing/arbitraries';

describe('ISO 8583 packing, as the card network contract says', () => {
  it('unpacks whatever it packs, every field as the field carries it', () => {
    fc.assert(
      fc.property(isoMessages, (message) => {
        const read = unpack(pack(message));
        expect(read.mti).toBe(message.mti);
        expect([...read.fields]).toEqual(
          [...message.fields].map(([n, v]) => [n, asCarried(n, v)]).sort((a, b) => (a[0] as number) - (b[0] as number)),
        );
        expect(pack(read)).toEqual(pack(message));
      }),
    );
  });

  it('packs a 0200 byte for byte: bitmap, zero and space padding, length prefixes', () => {
    const message: IsoMessage = {
      mti: '0200',
      fields: new Map([
        [2, '5060990000000000019'],
        [3, '001000'],
        [4, '150000'],
        [11, '42'],
        [41, 'POS1'],
        [49, '566'],
      ]),
    };
    expect(pack(message).toString('latin1')).toBe(
      '0200' + '7020000000808000' + '195060990000000000019' + '001000' + '000000150000' + '000042' + 'POS1    ' + '566',
    );
  });

  it('adds the secondary bitmap, with bit 1 set, for a field above 64', () => {
    const packed = pack({
      mti: '0800',
      fields: new Map([
        [7, '1129101500'],
        [11, '1'],
        [70, '301'],
      ]),
    }).toString('latin1');
    expect(packed.slice(4, 36)).toBe('8220000000000000' + '0400000000000000');
  });

  it('refuses a value its field cannot carry, and a field the contract does not use', () => {
    const refused = (number: number, value: string) => () => pack({ mti: '0200', fields: new Map([[number, value]]) });
    expect(refused(4, '1234567890123')).toThrow(new Iso8583Error('field 4 (amount, transaction) is longer than 12'));
    expect(refused(11, '12A')).toThrow(Iso8583Error);
    expect(refused(2, '5'.repeat(20))).toThrow(Iso8583Error);
    expect(refused(52, '0123456789abcdef')).toThrow(Iso8583Error);
    expect(refused(52, '0123')).toThrow(Iso8583Error);
    expect(refused(97, 'X12')).toThrow(Iso8583Error);
    expect(refused(43, 'Café')).toThrow(Iso8583Error);
    expect(refused(5, '1')).toThrow(new Iso8583Error('field 5 is not one the contract uses'));
    expect(() => pack({ mti: '200', fields: new Map() })).toThrow(Iso8583Error);
  });

  it('answers any bytes with a message or an Iso8583Error, never another failure', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          unpack(Buffer.from(bytes));
        } catch (error) {
          expect(error).toBeInstanceOf(Iso8583Error);
        }
      }),
    );
  });

  it('refuses a message cut short, one with bytes after its last field, and a length beyond its field', () => {
    const packed = pack({
      mti: '0210',
      fields: new Map([
        [2, '5060990000000000019'],
        [39, '00'],
      ]),
    }).toString('latin1');
    expect(() => unpack(Buffer.from(packed.slice(0, -1), 'latin1'))).toThrow('the message ends inside field 39');
    expect(() => unpack(Buffer.from(packed + '0', 'latin1'))).toThrow('1 bytes follow the last field');
    const tooLong = packed.replace('19506099', '20506099');
    expect(() => unpack(Buffer.from(tooLong, 'latin1'))).toThrow('says 20 characters, more than its 19');
  });
});

describe('framing, as jPOS PostChannel', () => {
  it('cuts any chunking of a stream of frames into the messages sent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 200 }), { maxLength: 10 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1 }),
        (sent, cuts) => {
          const stream = Buffer.concat(sent.map((message) => frame(Buffer.from(message))));
          const reader = new FrameReader();
          const received: Buffer[] = [];
          for (let at = 0, i = 0; at < stream.length; i++) {
            const size = cuts[i % cuts.length];
            received.push(...reader.push(stream.subarray(at, at + size)));
            at += size;
          }
          expect(received.map((message) => [...message])).toEqual(sent.map((message) => [...message]));
          expect(reader.pending).toBe(0);
        },
      ),
    );
  });

  it('writes the length big-endian in two bytes, not counting them', () => {
    expect([...frame(Buffer.alloc(257))].slice(0, 2)).toEqual([1, 1]);
    expect(() => frame(Buffer.alloc(0x10000))).toThrow(RangeError);
  });
});
