import { Readable } from 'node:stream';

import { TransactionResponse } from '@payments/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';

/** Kobo as naira with two decimals, for spreadsheets: "150050" → "1500.50". Exact for any amount. */
export function naira(kobo: string): string {
  const value = BigInt(kobo);
  return `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;
}

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, or a leading tab or return) is
 * prefixed with an apostrophe: a payer's name or comment must never execute in an accountant's
 * spreadsheet.
 */
export function inert(text: string | null): string {
  if (text === null) return '';
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const columns = [
  'Date (UTC)',
  'Reference',
  'Product',
  'Type',
  'Status',
  'Amount (NGN)',
  'Fee (NGN)',
  'Commission (NGN)',
  'Net amount (NGN)',
  'Account',
  'Outlet',
  'Session',
  'Customer reference',
  'Comment',
];

function toRecord(transaction: TransactionResponse): string[] {
  return [
    transaction.createdAt.replace('T', ' ').replace(/\.\d+Z$/, ''),
    inert(transaction.reference),
    transaction.productType,
    transaction.transactionType,
    transaction.transactionStatus,
    naira(transaction.amount),
    naira(transaction.fee),
    naira(transaction.commission),
    naira(transaction.netAmount),
    inert(transaction.transactionAccount),
    inert(transaction.outletId),
    inert(transaction.sessionId),
    inert(transaction.customerReference),
    inert(transaction.comment),
  ];
}

/**
 * The transactions as CSV an accountant opens in a spreadsheet: UTF-8 with a byte-order mark,
 * a header row, CRLF lines, amounts in naira with two decimals. Streamed as it is read.
 */
export function transactionsCsv(transactions: AsyncIterable<TransactionResponse>): Readable {
  const csv = stringify({ bom: true, header: true, columns, record_delimiter: 'windows' });
  const records = Readable.from(
    (async function* () {
      for await (const transaction of transactions) yield toRecord(transaction);
    })(),
  );
  records.on('error', (error) => csv.destroy(error));
  return records.pipe(csv);
}

/**
 * Sends an export as a download named for its range (YYYY-MM-DD, from the instants as parsed,
 * never the text the caller sent), never cached.
 */
export async function sendTransactionsCsv(
  reply: FastifyReply,
  range: { from: string; to: string },
  transactions: AsyncIterable<TransactionResponse>,
): Promise<void> {
  const day = (instant: string) => new Date(instant).toISOString().slice(0, 10);
  await reply
    .headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="transactions-${day(range.from)}-${day(range.to)}.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    .send(transactionsCsv(transactions));
}
