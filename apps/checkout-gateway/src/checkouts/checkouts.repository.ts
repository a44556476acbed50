import { Injectable } from '@nestjs/common';
import { CheckoutOutcome, CheckoutResponse, CreateCheckoutRequest } from '@payments/contracts';
import { firstRow, preparedQuery } from '@payments/platform-database';
import { OutboxRow } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

/** A row of gateway.checkouts. */
export interface CheckoutRow {
  reference: string;
  business_id: string;
  amount: string;
  account_name: string;
  payment_methods: CheckoutResponse['paymentMethod'];
  used_method: CheckoutResponse['usedMethod'];
  status: CheckoutResponse['transactionStatus'];
  email: string | null;
  callback_url: string | null;
  return_url: string | null;
  metadata: Record<string, unknown> | null;
  masked_card: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A checkout with the business it belongs to, as the hosted page shows it. */
export type CheckoutWithBusinessRow = CheckoutRow & { business_name: string; business_mode: string };

export interface NewCheckout {
  reference: string;
  request: CreateCheckoutRequest;
  ttlMinutes: number;
}

/** CheckoutsRepository.end's statement: $1 business, $2 reference, $3–$6 the outcome, $7–$11 the outbox row. */
export const endCheckoutStatement = `WITH ended AS (
     UPDATE gateway.checkouts SET status = $3, used_method = $4, masked_card = $5, updated_at = $6
     WHERE business_id = $1 AND reference = $2 AND status = 'PROCESSING' RETURNING reference
   )
   INSERT INTO gateway.outbox (id, topic, message_key, payload, headers) SELECT $7, $8, $9, $10, $11 FROM ended`;

type ExpiredCheckout = Pick<CheckoutRow, 'business_id' | 'reference'>;

/** CheckoutsRepository.dueForExpiry's statement: $1 the most to take. */
export const dueForExpiryStatement = `SELECT business_id, reference FROM gateway.checkouts
   WHERE status = 'PROCESSING' AND expires_at <= now() ORDER BY expires_at LIMIT $1`;

/** gateway.checkouts. Partner-facing reads take the business first; the link and the expirer are the two exceptions. */
@Injectable()
export class CheckoutsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inside `em`'s transaction when there is one; otherwise one statement, prepared once per connection. */
  async insert(businessId: string, checkout: NewCheckout, em?: EntityManager): Promise<void> {
    const { request } = checkout;
    const values = [
      checkout.reference,
      businessId,
      request.amount,
      request.accountName,
      request.paymentMethod,
      request.email ?? null,
      request.callBackUrl ?? null,
      request.returnUrl ?? null,
      request.metadata === undefined ? null : JSON.stringify(request.metadata),
      checkout.ttlMinutes,
    ];
    const statement = `INSERT INTO gateway.checkouts (reference, business_id, amount, account_name, payment_methods, email, callback_url, return_url, metadata, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(mins => $10))`;
    if (em?.queryRunner?.isTransactionActive) await em.query(statement, values);
    else await preparedQuery(this.dataSource, 'gateway.create_checkout', statement, values);
  }

  async find(businessId: string, reference: string): Promise<CheckoutRow | undefined> {
    const [row] = await preparedQuery<CheckoutRow>(
      this.dataSource,
      'gateway.checkout',
      `SELECT * FROM gateway.checkouts WHERE business_id = $1 AND reference = $2`,
      [businessId, reference],
    );
    return row;
  }

  /** By reference alone: the hosted page's link is its only credential. */
  async findWithBusiness(reference: string): Promise<CheckoutWithBusinessRow | undefined> {
    return firstRow<CheckoutWithBusinessRow>(
      this.dataSource,
      `SELECT c.*, b.name AS business_name, b.mode AS business_mode
       FROM gateway.checkouts c JOIN gateway.businesses b ON b.id = c.business_id WHERE c.reference = $1`,
      [reference],
    );
  }

  /**
   * Ends a checkout still PROCESSING and queues its event in the same statement; a checkout
   * already ended is left as it is and no event is queued.
   */
  async end(outcome: CheckoutOutcome, at: Date, event: OutboxRow): Promise<void> {
    await preparedQuery(this.dataSource, 'gateway.end_checkout', endCheckoutStatement, [
      outcome.businessId,
      outcome.checkoutReference,
      outcome.status,
      outcome.method,
      outcome.maskedCard,
      at,
      event.id,
      event.topic,
      event.key,
      event.payload,
      event.headers,
    ]);
  }

  /** Every business's checkouts past their expiry and still open, oldest first: the expirer's work. */
  async dueForExpiry(limit: number): Promise<ExpiredCheckout[]> {
    return (await this.dataSource.query(dueForExpiryStatement, [limit])) as ExpiredCheckout[];
  }
}
