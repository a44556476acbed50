import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  CheckoutClosing,
  CheckoutOutcome,
  CheckoutResponse,
  CreateCheckoutRequest,
  CreateCheckoutResponse,
  HostedCheckoutView,
  PartnerEvents,
  PartnerEventV1,
  PartnerEventV1Payload,
  PaymentMethod,
  Topics,
} from '@payments/contracts';
import { newUlid, requestHash } from '@payments/platform-crypto';
import { preparedQuery } from '@payments/platform-database';
import { apiError } from '@payments/platform-envelope';
import { NewEvent, Outbox, outboxCommitted } from '@payments/platform-outbox';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager } from 'typeorm';

import { Env } from '../config/env';
import { OutletServiceClient } from '../services/outlet-service.client';
import { checkoutLink } from './checkout-link';

interface CheckoutRow {
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

const expiredComment = 'Checkout expired before payment';

/**
 * Checkout records. How a checkout ends is decided by outlet-service, where its money is booked
 * (the first payment or the first closing wins); this service mirrors that outcome on the
 * record and sends checkout.success or checkout.failed, once. It never ends a checkout on its
 * own, so the record cannot say FAILED while the ledger holds its money.
 */
@Injectable()
export class CheckoutsService {
  private readonly logger = new Logger(CheckoutsService.name);
  /** Checkouts this instance saw end, and how: an outcome never changes, so their events need no reading. */
  private readonly ended = new LRUCache<string, CheckoutOutcome['status']>({ max: 100_000 });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly outlets: OutletServiceClient,
    private readonly env: Env,
  ) {}

  /** Creates a checkout; with an Idempotency-Key, a retry of the same request gets the first answer. */
  async create(
    businessId: string,
    request: CreateCheckoutRequest,
    idempotencyKey?: string,
  ): Promise<CreateCheckoutResponse> {
    if (!idempotencyKey) return this.insert(this.dataSource.manager, businessId, request);
    return this.dataSource.transaction(async (em) => {
      const earlier = await this.claimKey(em, businessId, idempotencyKey, request);
      if (earlier) return earlier;
      const response = await this.insert(em, businessId, request);
      await em.query(`UPDATE gateway.idempotency_keys SET response = $3 WHERE business_id = $1 AND key = $2`, [
        businessId,
        idempotencyKey,
        JSON.stringify(response),
      ]);
      return response;
    });
  }

  private async insert(
    em: EntityManager,
    businessId: string,
    request: CreateCheckoutRequest,
  ): Promise<CreateCheckoutResponse> {
    const reference = `CHK-${newUlid()}`;
    const values = [
      reference,
      businessId,
      request.amount,
      request.accountName,
      request.paymentMethod,
      request.email ?? null,
      request.callBackUrl ?? null,
      request.returnUrl ?? null,
      request.metadata === undefined ? null : JSON.stringify(request.metadata),
      this.env.CHECKOUT_TTL_MINUTES,
    ];
    const statement = `INSERT INTO gateway.checkouts (reference, business_id, amount, account_name, payment_methods, email, callback_url, return_url, metadata, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(mins => $10))`;
    // Outside a transaction the insert is a statement of its own, prepared once per connection.
    if (em.queryRunner?.isTransactionActive) await em.query(statement, values);
    else await preparedQuery(this.dataSource, 'gateway.create_checkout', statement, values);
    return { reference, link: checkoutLink(this.env.CHECKOUT_URL, reference) };
  }

  /**
   * The record as it is now. A checkout past its expiry that the expirer has not reached yet is
   * closed first, so it reads as the ledger decided (FAILED, or SUCCESS when money arrived in
   * time); while the ledger cannot be asked it reads PROCESSING.
   */
  async get(businessId: string, reference: string): Promise<CheckoutResponse> {
    const row = await this.closingIfExpired(async () => {
      const [found] = await preparedQuery<CheckoutRow>(
        this.dataSource,
        'gateway.checkout',
        `SELECT * FROM gateway.checkouts WHERE business_id = $1 AND reference = $2`,
        [businessId, reference],
      );
      return found;
    });
    if (!row) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${reference} not found`);
    return toResponse(row);
  }

  /** The checkout, if a payment by `method` may still start or continue on it. */
  async payable(businessId: string, reference: string, method: PaymentMethod): Promise<CheckoutResponse> {
    const checkout = await this.get(businessId, reference);
    if (checkout.transactionStatus !== 'PROCESSING' || Date.parse(checkout.expiresAt) <= Date.now()) {
      const state = checkout.transactionStatus === 'PROCESSING' ? 'expired' : checkout.transactionStatus.toLowerCase();
      throw apiError('CHECKOUT_NOT_PAYABLE', `Checkout ${reference} is ${state} and cannot be paid`);
    }
    if (!checkout.paymentMethod.includes(method))
      throw apiError('CHECKOUT_NOT_PAYABLE', `Checkout ${reference} does not accept ${method}`);
    return checkout;
  }

  /**
   * The checkout behind a hosted page link, with its business's display name; null when the
   * reference is unknown. The link is the page's only credential, so the view is kept small.
   */
  async findForPage(reference: string): Promise<HostedCheckoutView | null> {
    const row = await this.closingIfExpired(async () => {
      const [found] = (await this.dataSource.query(
        `SELECT c.*, b.name AS business_name, b.mode AS business_mode FROM gateway.checkouts c JOIN gateway.businesses b ON b.id = c.business_id WHERE c.reference = $1`,
        [reference],
      )) as (CheckoutRow & { business_name: string; business_mode: string })[];
      return found;
    });
    if (!row) return null;
    const checkout = toResponse(row);
    return {
      reference: checkout.reference,
      businessName: row.business_name,
      testMode: row.business_mode === 'test',
      amount: checkout.amount,
      paymentMethod: checkout.paymentMethod,
      transactionStatus: checkout.transactionStatus,
      usedMethod: checkout.usedMethod,
      expiresAt: checkout.expiresAt,
      returnUrl: checkout.returnUrl,
    };
  }

  /**
   * Mirrors the ledger's decision on the record and sends its event, once: a second call, from
   * a command's answer and from the outcome event alike, changes nothing. One statement ends
   * the checkout and queues its event; `known` saves reading the record when the caller has it.
   */
  async applyOutcome(outcome: CheckoutOutcome, known?: CheckoutResponse): Promise<void> {
    const seen = this.ended.get(outcome.checkoutReference);
    const checkout = seen ? null : (known ?? (await this.current(outcome.businessId, outcome.checkoutReference)));
    const recorded = seen ?? checkout?.transactionStatus;
    if (!recorded) return;
    if (recorded !== 'PROCESSING') {
      this.ended.set(outcome.checkoutReference, recorded);
      if (recorded !== outcome.status) {
        this.logger.error(
          { checkoutReference: outcome.checkoutReference, recorded, decided: outcome.status },
          'checkout record disagrees with the ledger',
        );
      }
      return;
    }
    const at = new Date();
    const event = this.outbox.row<PartnerEventV1Payload>(outcomeEvent(outcome, checkout!, at));
    await preparedQuery(
      this.dataSource,
      'gateway.end_checkout',
      `WITH ended AS (
         UPDATE gateway.checkouts SET status = $3, used_method = $4, masked_card = $5, updated_at = $6
         WHERE business_id = $1 AND reference = $2 AND status = 'PROCESSING' RETURNING reference
       )
       INSERT INTO gateway.outbox (id, topic, message_key, payload, headers) SELECT $7, $8, $9, $10, $11 FROM ended`,
      [
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
      ],
    );
    outboxCommitted(this.dataSource);
    this.ended.set(outcome.checkoutReference, outcome.status);
  }

  /** The record as stored, without closing an expired one. */
  private async current(businessId: string, reference: string): Promise<CheckoutResponse | null> {
    const [row] = (await this.dataSource.query(
      `SELECT * FROM gateway.checkouts WHERE business_id = $1 AND reference = $2`,
      [businessId, reference],
    )) as CheckoutRow[];
    return row ? toResponse(row) : null;
  }

  /** Asks the ledger to end checkouts FAILED; each ends as it decides (SUCCESS if money won the race). */
  async close(closings: CheckoutClosing[]): Promise<CheckoutOutcome[]> {
    if (closings.length === 0) return [];
    const outcomes = await this.outlets.send<CheckoutOutcome[]>({ type: 'closeCheckouts', checkouts: closings });
    for (const outcome of outcomes) await this.applyOutcome(outcome);
    return outcomes;
  }

  /** Closes checkouts past their expiry; returns how many it asked about. Replicas may overlap: closing is idempotent. */
  async expireDue(limit = 100): Promise<number> {
    const due = (await this.dataSource.query(
      `SELECT business_id, reference FROM gateway.checkouts WHERE status = 'PROCESSING' AND expires_at <= now() ORDER BY expires_at LIMIT $1`,
      [limit],
    )) as Pick<CheckoutRow, 'business_id' | 'reference'>[];
    await this.close(
      due.map((row) => ({ businessId: row.business_id, checkoutReference: row.reference, comment: expiredComment })),
    );
    return due.length;
  }

  /** Reads a row; an expired one the expirer has not reached yet is closed first, when the ledger answers. */
  private async closingIfExpired<T extends CheckoutRow>(read: () => Promise<T | undefined>): Promise<T | undefined> {
    const row = await read();
    if (!row || row.status !== 'PROCESSING' || row.expires_at.getTime() > Date.now()) return row;
    try {
      await this.close([{ businessId: row.business_id, checkoutReference: row.reference, comment: expiredComment }]);
    } catch (error) {
      this.logger.warn({ err: error, checkoutReference: row.reference }, 'could not close an expired checkout yet');
      return row;
    }
    return read();
  }

  private async claimKey(
    em: EntityManager,
    businessId: string,
    key: string,
    request: CreateCheckoutRequest,
  ): Promise<CreateCheckoutResponse | null> {
    const hash = requestHash('create_checkout', request);
    const claimed: unknown[] = await em.query(
      `INSERT INTO gateway.idempotency_keys (business_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key`,
      [businessId, key, hash],
    );
    if (claimed.length === 1) return null;
    const [earlier] = (await em.query(
      `SELECT request_hash, response FROM gateway.idempotency_keys WHERE business_id = $1 AND key = $2`,
      [businessId, key],
    )) as { request_hash: string; response: CreateCheckoutResponse | null }[];
    if (earlier.request_hash !== hash || !earlier.response) {
      throw apiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request');
    }
    return earlier.response;
  }
}

/** checkout.success or checkout.failed, with the common eventData fields; also to the callback URL. */
function outcomeEvent(outcome: CheckoutOutcome, checkout: CheckoutResponse, at: Date): NewEvent<PartnerEventV1Payload> {
  return {
    topic: Topics.partnerEvents,
    type: PartnerEventV1,
    key: outcome.businessId,
    businessId: outcome.businessId,
    payload: {
      event: outcome.status === 'SUCCESS' ? PartnerEvents.checkoutSuccess : PartnerEvents.checkoutFailed,
      eventData: {
        sessionId: null,
        productType: 'checkout',
        amount: checkout.amount,
        netAmount: checkout.amount,
        fee: '0',
        commission: '0',
        transactionStatus: outcome.status,
        transactionReference: checkout.reference,
        customerReference: checkout.email,
        comment: outcome.comment,
        createdAt: at.toISOString(),
        transactionAccount: checkout.reference,
        transactionType: 'CREDIT',
        metadata: checkout.metadata ?? {},
      },
      ...(checkout.callBackUrl ? { callbackUrl: checkout.callBackUrl } : {}),
    },
  };
}

function toResponse(row: CheckoutRow): CheckoutResponse {
  return {
    reference: row.reference,
    amount: row.amount,
    accountName: row.account_name,
    paymentMethod: row.payment_methods,
    usedMethod: row.used_method,
    transactionStatus: row.status,
    email: row.email,
    callBackUrl: row.callback_url,
    returnUrl: row.return_url,
    metadata: row.metadata,
    maskedCard: row.masked_card,
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
