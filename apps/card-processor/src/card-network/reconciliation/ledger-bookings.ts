import { DataSource } from 'typeorm';

import { NetworkName } from '../card-network';
import { lagosDay } from '../lagos-time';
import { RequestPurpose } from '../network-requests.repository';

/** A card payment or refund as the ledger booked it. */
export interface Booking {
  /** The payment as network_requests names it: its purpose and reference. */
  purpose: RequestPurpose;
  paymentReference: string;
  businessId: string;
  /** Kobo that left the business's rail wallet (a credit) or went back to it (a refund). */
  amount: bigint;
  /** The journal entry: its kind and its own reference (a charge id for a card held in suspense). */
  entryKind: string;
  entryReference: string;
}

export type PaymentKey = Pick<Booking, 'purpose' | 'paymentReference' | 'businessId'>;

/** What reconciliation asks of the ledger; outlet-service's tables answer it (OutletsLedger). */
export interface LedgerBookings {
  /** What the ledger booked for these payments: none, or one booking each. */
  bookingsFor(payments: readonly PaymentKey[]): Promise<Booking[]>;
  /** Card credits booked on a Lagos day, for businesses on this network, that no network request was written for. */
  unsentCredits(network: NetworkName, day: string): Promise<Booking[]>;
}

interface BookingRow {
  purpose: RequestPurpose;
  payment_reference: string;
  business_id: string;
  amount: string;
  entry_kind: string;
  entry_reference: string;
}

/** The rail wallet's side of an entry: what left it for a credit, what came back for a refund. */
const railAmount = `JOIN outlets.postings p ON p.entry_id = e.id
  JOIN outlets.wallets rail ON rail.id = p.wallet_id AND rail.type = 'rail'`;

/**
 * outlet-service's ledger (schema outlets), read as the schemas' owner: a POS credit is the
 * journal entry of kind `pos` under its POS reference; a checkout paid by card, the `checkout`
 * entry under the checkout's reference (its outcome's method `card`), or the `suspense` entry
 * under the card charge's id when the checkout had ended before the card was captured; a card
 * refund, the `refund` entry under the refund's reference.
 */
export class OutletsLedger implements LedgerBookings {
  constructor(private readonly dataSource: DataSource) {}

  async bookingsFor(payments: readonly PaymentKey[]): Promise<Booking[]> {
    if (payments.length === 0) return [];
    const rows = (await this.dataSource.query(
      `WITH wanted AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS w(purpose, business_id, payment_reference)
       ), entries AS (
         SELECT w.*, e.id, e.kind, e.reference
         FROM wanted w JOIN outlets.journal_entries e
           ON e.business_id = w.business_id AND e.kind = w.purpose AND e.reference = w.payment_reference
         WHERE w.purpose IN ('pos', 'refund')
            OR EXISTS (SELECT 1 FROM outlets.checkout_outcomes o
                       WHERE o.checkout_reference = w.payment_reference AND o.business_id = w.business_id AND o.method = 'card')
         UNION ALL
         SELECT w.*, e.id, e.kind, e.reference
         FROM wanted w
         JOIN card_processor.card_charges c ON c.checkout_reference = w.payment_reference AND c.business_id = w.business_id
         JOIN outlets.journal_entries e ON e.business_id = w.business_id AND e.kind = 'suspense' AND e.reference = c.id
         WHERE w.purpose = 'checkout'
       )
       SELECT e.purpose, e.payment_reference, e.business_id, abs(p.amount)::text AS amount,
              e.kind AS entry_kind, e.reference AS entry_reference
       FROM entries e ${railAmount}`,
      [payments.map((p) => p.purpose), payments.map((p) => p.businessId), payments.map((p) => p.paymentReference)],
    )) as BookingRow[];
    return rows.map(bookingOf);
  }

  /**
   * Reads the day's journal entries whatever their kind (outlets.journal_entries has no index
   * on its time): a scan once a day, by the schemas' owner, beside the app's own traffic.
   */
  async unsentCredits(network: NetworkName, day: string): Promise<Booking[]> {
    const { start, end } = lagosDay(day);
    const rows = (await this.dataSource.query(
      `SELECT c.purpose, c.payment_reference, e.business_id, abs(p.amount)::text AS amount,
              e.kind AS entry_kind, e.reference AS entry_reference
       FROM outlets.journal_entries e
       JOIN outlets.tenants t ON t.business_id = e.business_id AND t.mode = $1
       LEFT JOIN outlets.checkout_outcomes o
         ON e.kind = 'checkout' AND o.checkout_reference = e.reference AND o.business_id = e.business_id
       LEFT JOIN card_processor.card_charges ch
         ON e.kind = 'suspense' AND ch.id = e.reference AND ch.business_id = e.business_id
       CROSS JOIN LATERAL (SELECT CASE e.kind WHEN 'pos' THEN 'pos' ELSE 'checkout' END AS purpose,
                                  coalesce(ch.checkout_reference, e.reference) AS payment_reference) c
       ${railAmount}
       WHERE e.created_at >= $2 AND e.created_at < $3
         AND (e.kind = 'pos' OR (e.kind = 'checkout' AND o.method = 'card') OR (e.kind = 'suspense' AND ch.id IS NOT NULL))
         AND NOT EXISTS (SELECT 1 FROM card_processor.network_requests r
                         WHERE r.purpose = c.purpose AND r.payment_reference = c.payment_reference)`,
      [network === 'live' ? 'live' : 'test', start, end],
    )) as BookingRow[];
    return rows.map(bookingOf);
  }
}

function bookingOf(row: BookingRow): Booking {
  return {
    purpose: row.purpose,
    paymentReference: row.payment_reference,
    businessId: row.business_id,
    amount: BigInt(row.amount),
    entryKind: row.entry_kind,
    entryReference: row.entry_reference,
  };
}
