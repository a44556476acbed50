import { TransactionResponse } from '@payments/contracts';
import fc from 'fast-check';

import { inert, naira, transactionsCsv } from './transactions-csv';

const transaction = (overrides: Partial<TransactionResponse> = {}): TransactionResponse => ({
  reference: 'T-1',
  productType: 'collection',
  transactionType: 'CREDIT',
  transactionStatus: 'SUCCESS',
  amount: '150050',
  fee: '1501',
  commission: '0',
  netAmount: '148549',
  transactionAccount: '9012345678',
  outletId: null,
  sessionId: null,
  customerReference: null,
  comment: null,
  event: 'fundAccount.success',
  createdAt: '2026-11-23T10:15:00.123Z',
  updatedAt: '2026-11-23T10:15:00.123Z',
  ...overrides,
});

async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('transactions CSV', () => {
  it('writes kobo as naira with two decimals, exactly, for any amount', () => {
    expect([naira('0'), naira('5'), naira('150050'), naira('100000000000')]).toEqual([
      '0.00',
      '0.05',
      '1500.50',
      '1000000000.00',
    ]);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), (kobo) => {
        const text = naira(kobo.toString());
        expect(text).toMatch(/^\d+\.\d{2}$/);
        expect(BigInt(text.replace('.', ''))).toBe(kobo);
      }),
    );
  });

  it('keeps a spreadsheet from running text as a formula', () => {
    expect(['=1+1', '+234', '-5', '@SUM(A1)', '\tx', 'Ada', null].map(inert)).toEqual([
      "'=1+1",
      "'+234",
      "'-5",
      "'@SUM(A1)",
      "'\tx",
      'Ada',
      '',
    ]);
  });

  it('streams a BOM, a header row and one CRLF line per transaction, quoting what needs it', async () => {
    async function* rows() {
      yield transaction();
      yield transaction({ reference: 'T-2', comment: 'Paid, "thanks"', createdAt: '2026-11-23T11:00:00.000Z' });
    }
    const bytes = await read(transactionsCsv(rows()));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0].split(',')).toHaveLength(14);
    expect(lines[1]).toBe(
      '2026-11-23 10:15:00,T-1,collection,CREDIT,SUCCESS,1500.50,15.01,0.00,1485.49,9012345678,,,,',
    );
    expect(lines[2]).toBe(
      '2026-11-23 11:00:00,T-2,collection,CREDIT,SUCCESS,1500.50,15.01,0.00,1485.49,9012345678,,,,"Paid, ""thanks"""',
    );
    expect(lines[3]).toBe('');
  });

  it('ends the file with the error when reading fails midway, rather than a short file that looks whole', async () => {
    async function* failing() {
      yield transaction();
      throw new Error('database gone');
    }
    await expect(read(transactionsCsv(failing()))).rejects.toThrow('database gone');
  });
});
