import { Injectable } from '@nestjs/common';
import { TransactionFilters, TransactionResponse } from '@payments/contracts';
import { camelCased, firstRow } from '@payments/platform-database';
import { DataSource, EntityManager } from 'typeorm';

/** A transaction as a money event describes it. */
export interface RecordedTransaction extends Omit<TransactionResponse, 'updatedAt'> {
  businessId: string;
  eventId: string;
  /** The family its reference belongs to (see `transactionKind`): one row per business, kind and reference. */
  kind: string;
  /** An internal transfer's source wallet's outlet, when known: the outletId filter finds it under either side. */
  sourceOutletId: string | null;
}

/** A row as `transactionColumns` selects it. */
interface TransactionRow {
  reference: string;
  product_type: string;
  transaction_type: 'CREDIT' | 'DEBIT';
  transaction_status: TransactionResponse['transactionStatus'];
  amount: string;
  fee: string;
  commission: string;
  net_amount: string;
  transaction_account: string;
  outlet_id: string | null;
  session_id: string | null;
  customer_reference: string | null;
  comment: string | null;
  event: string;
  created_at: Date;
  updated_at: Date;
}

// What a partner sees of a transaction, named so that camelCasing gives the API's names.
const transactionColumns = `reference, product_type, transaction_type, status AS transaction_status, amount, fee,
  commission, net_amount, account AS transaction_account, outlet_id, session_id, customer_reference, comment, event,
  created_at, updated_at`;

/** Successful credits of one product type over a period: how many, and how much in kobo. */
export interface CollectedTotal {
  productType: string;
  count: number;
  amount: string;
}

/**
 * Where a transaction stands in the history's order: its createdAt to the microsecond (as
 * PostgreSQL keeps it, ISO 8601 in UTC), then its arrival. Pages are cut after one.
 */
export interface TransactionPlace {
  createdAt: string;
  /** Arrival order (gateway.transactions.id): ties of createdAt are broken by it. */
  arrival: string;
}

/** A stored transaction and its place, which cursors are cut on. */
export interface StoredTransaction {
  place: TransactionPlace;
  transaction: TransactionResponse;
}

// The place of each row read, exact: a JavaScript Date would drop the microseconds.
const placeColumns = `id::text AS place_arrival,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS place_created_at`;

// A row is of the product type asked for when it was announced as one, or, for `refund`, when it
// is a refund of any product (money a card captured after its checkout ended is announced as a
// `card` refund, and its kind says refund).
const ofProductType = (parameter: string) =>
  `(${parameter}::text IS NULL OR product_type = ${parameter} OR kind = ${parameter})`;

// Each filter is matched only when given: one statement, one plan, whatever the combination.
const filtered = `business_id = $1
  AND ($2::text IS NULL OR status = $2)
  AND ${ofProductType('$3')}
  AND ($4::text IS NULL OR outlet_id = $4 OR source_outlet_id = $4)
  AND ($5::text IS NULL OR reference = $5)
  AND ($6::timestamptz IS NULL OR created_at >= $6)
  AND ($7::timestamptz IS NULL OR created_at < $7)`;

/** gateway.transactions: the business's transaction history. Every read names the business. */
@Injectable()
export class TransactionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records what events say of their transactions, in one statement; their keys (kind and
   * reference) must be distinct, as a statement cannot touch one row twice. A later event of
   * the same kind and reference updates a PROCESSING one (a refund processed, a payout
   * settled); a final status never changes, and a redelivered event changes nothing.
   */
  async record(em: EntityManager, transactions: RecordedTransaction[]): Promise<void> {
    const rows = transactions.map((transaction) => ({
      business_id: transaction.businessId,
      kind: transaction.kind,
      reference: transaction.reference,
      product_type: transaction.productType,
      transaction_type: transaction.transactionType,
      status: transaction.transactionStatus,
      amount: transaction.amount,
      fee: transaction.fee,
      commission: transaction.commission,
      net_amount: transaction.netAmount,
      account: transaction.transactionAccount,
      outlet_id: transaction.outletId,
      source_outlet_id: transaction.sourceOutletId,
      session_id: transaction.sessionId,
      customer_reference: transaction.customerReference,
      comment: transaction.comment,
      event: transaction.event,
      event_id: transaction.eventId,
      created_at: transaction.createdAt,
    }));
    await em.query(
      `INSERT INTO gateway.transactions (business_id, kind, reference, product_type, transaction_type, status, amount,
         fee, commission, net_amount, account, outlet_id, source_outlet_id, session_id, customer_reference, comment,
         event, event_id, created_at)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(business_id text, kind text, reference text,
         product_type text, transaction_type text, status text, amount bigint, fee bigint, commission bigint,
         net_amount bigint, account text, outlet_id text, source_outlet_id text, session_id text,
         customer_reference text, comment text, event text, event_id text, created_at timestamptz)
       ON CONFLICT (business_id, kind, reference) DO UPDATE SET status = excluded.status, amount = excluded.amount,
         fee = excluded.fee, commission = excluded.commission, net_amount = excluded.net_amount,
         comment = excluded.comment, event = excluded.event, event_id = excluded.event_id, updated_at = now()
       WHERE transactions.status = 'PROCESSING' AND transactions.event_id <> excluded.event_id`,
      [JSON.stringify(rows)],
    );
  }

  /** The newest transaction of that reference (and product type, when given), in the list's order. */
  async get(businessId: string, reference: string, productType: string | null): Promise<TransactionResponse | null> {
    const row = await firstRow<TransactionRow>(
      this.dataSource,
      `SELECT ${transactionColumns} FROM gateway.transactions
       WHERE business_id = $1 AND reference = $2 AND ${ofProductType('$3')}
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [businessId, reference, productType],
    );
    return row ? toTransaction(row) : null;
  }

  /**
   * Money collected from `from` on, by product: successful credits only, their count and total
   * in kobo. Reads the range of transactions_business_created_idx.
   */
  async collectedSince(businessId: string, from: string): Promise<CollectedTotal[]> {
    const rows = (await this.dataSource.query(
      `SELECT product_type, count(*)::int AS count, sum(amount)::text AS amount FROM gateway.transactions
       WHERE business_id = $1 AND created_at >= $2 AND status = 'SUCCESS' AND transaction_type = 'CREDIT'
       GROUP BY product_type ORDER BY product_type`,
      [businessId, from],
    )) as { product_type: string; count: number; amount: string }[];
    return rows.map((row) => ({ productType: row.product_type, count: row.count, amount: row.amount }));
  }

  /**
   * Up to `limit` transactions after `after` (from the newest when null), newest first: by
   * createdAt, and of one createdAt the last to arrive first. transactions_business_created_idx
   * is read backwards from the place, so a page reads the rows it shows, however deep it is.
   */
  async newestFirst(
    businessId: string,
    filters: TransactionFilters,
    after: TransactionPlace | null,
    limit: number,
  ): Promise<StoredTransaction[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${placeColumns}, ${transactionColumns} FROM gateway.transactions
       WHERE ${filtered} AND ($8::timestamptz IS NULL OR (created_at, id) < ($8::timestamptz, $9::bigint))
       ORDER BY created_at DESC, id DESC LIMIT $10`,
      [...filterValues(businessId, filters), after?.createdAt ?? null, after?.arrival ?? null, limit],
    )) as PlacedRow[];
    return rows.map(stored);
  }

  /**
   * Every matching transaction in the reverse of the list's order (oldest first), read a page at
   * a time: never the whole set in memory.
   */
  async *oldestFirst(
    businessId: string,
    filters: TransactionFilters,
    pageSize = 500,
  ): AsyncGenerator<TransactionResponse> {
    let after: TransactionPlace | null = null;
    for (;;) {
      const rows = (await this.dataSource.query(
        `SELECT ${placeColumns}, ${transactionColumns} FROM gateway.transactions
         WHERE ${filtered} AND ($8::timestamptz IS NULL OR (created_at, id) > ($8::timestamptz, $9::bigint))
         ORDER BY created_at, id LIMIT $10`,
        [...filterValues(businessId, filters), after?.createdAt ?? null, after?.arrival ?? null, pageSize],
      )) as PlacedRow[];
      for (const row of rows) yield stored(row).transaction;
      if (rows.length < pageSize) return;
      after = stored(rows[rows.length - 1]).place;
    }
  }
}

type PlacedRow = TransactionRow & { place_arrival: string; place_created_at: string };

function filterValues(businessId: string, filters: TransactionFilters): (string | null)[] {
  return [
    businessId,
    filters.status ?? null,
    filters.productType ?? null,
    filters.outletId ?? null,
    filters.reference ?? null,
    filters.from ?? null,
    filters.to ?? null,
  ];
}

function stored({ place_arrival, place_created_at, ...row }: PlacedRow): StoredTransaction {
  return { place: { createdAt: place_created_at, arrival: place_arrival }, transaction: toTransaction(row) };
}

function toTransaction(row: TransactionRow): TransactionResponse {
  return { ...camelCased(row), createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
}
