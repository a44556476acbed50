import { randomBytes } from 'node:crypto';

import { DomainError } from '@payments/platform-envelope';
import fc from 'fast-check';

import { PageCursors } from './page-cursors';

const key = randomBytes(32).toString('base64');
const cursors = new PageCursors(key);

/** What reading `cursor` answers: the position, or the error's status, code and field errors. */
function read(cursor: string, listing: 'transactions' | 'refunds' = 'transactions', businessId = 'BUS-1') {
  try {
    return cursors.read(listing, businessId, cursor);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { status: error.status, code: error.code, errors: error.details.errors };
  }
}

const refused = {
  status: 422,
  code: 'VALIDATION_FAILED',
  errors: [{ field: 'cursor', messages: ['cursor must be a nextCursor this API returned'] }],
};

describe('PageCursors', () => {
  it('reads back the position of a cursor it issued, for any position', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (position) => {
        expect(read(cursors.issue('transactions', 'BUS-1', position))).toBe(position);
      }),
    );
  });

  it('refuses a base64 row number, the form GET /transactions used to give and docs/transactions.md showed', () => {
    expect(read('MTIzNDU')).toEqual(refused);
    expect(read(Buffer.from('1').toString('base64url'))).toEqual(refused);
  });

  it("refuses another listing's cursor, and another business's", () => {
    const cursor = cursors.issue('refunds', 'BUS-1', '01JD3Q8ZK4T6W2V9XG5H7M1N3T');
    expect(read(cursor, 'refunds')).toBe('01JD3Q8ZK4T6W2V9XG5H7M1N3T');
    expect(read(cursor, 'transactions')).toEqual(refused);
    expect(read(cursor, 'refunds', 'BUS-2')).toEqual(refused);
  });

  it('refuses a cursor changed in any byte, cut short, lengthened or issued under another key', () => {
    const cursor = cursors.issue('transactions', 'BUS-1', '2026-11-23T10:15:00.123456Z 42');
    const bytes = Buffer.from(cursor, 'base64url');
    for (let at = 0; at < bytes.length; at++) {
      const changed = Buffer.from(bytes);
      changed[at] ^= 1;
      expect(read(changed.toString('base64url'))).toEqual(refused);
    }
    expect(read(cursor.slice(0, -1))).toEqual(refused);
    expect(read(`${cursor}A`)).toEqual(refused);
    expect(read(`${cursor}.`)).toEqual(refused);
    const other = new PageCursors(randomBytes(32).toString('base64'));
    expect(read(other.issue('transactions', 'BUS-1', '2026-11-23T10:15:00.123456Z 42'))).toEqual(refused);
  });

  it('gives cursors that show nothing of the position, in the form the query string rule takes', () => {
    const position = '2026-11-23T10:15:00.123456Z 9223372036854775807';
    const cursor = cursors.issue('transactions', 'BUS-1', position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
    expect(decoded).not.toContain('2026');
    expect(decoded).not.toContain('9223372036854775807');
  });

  it('reads cursors issued under any key of its ring, through a rotation, and none once their key is dropped', () => {
    const newKey = randomBytes(32).toString('base64');
    const issuedBefore = cursors.issue('transactions', 'biz-1', '42');
    const rotated = new PageCursors(`${newKey},${key}`);
    const issuedAfter = rotated.issue('transactions', 'biz-1', '43');
    expect(rotated.read('transactions', 'biz-1', issuedBefore)).toBe('42');
    expect(rotated.read('transactions', 'biz-1', issuedAfter)).toBe('43');
    expect(new PageCursors(`${key},${newKey}`).read('transactions', 'biz-1', issuedAfter)).toBe('43');
    expect(() => new PageCursors(newKey).read('transactions', 'biz-1', issuedBefore)).toThrow(DomainError);
  });
});
