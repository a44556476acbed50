import { Injectable, Logger } from '@nestjs/common';
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
import { apiError, DomainError } from '@payments/platform-envelope';
import { NewEvent, Outbox, outboxCommitted } from '@payments/platform-outbox';
import { assertWebhookUrlAllowed } from '@payments/platform-webhook-targets';
import { DataSource, EntityManager } from 'typeorm';

import { Business } from '../businesses/business.entity';
import { Env } from '../config/env';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { checkoutLink } from './checkout-link';
import { CheckoutRow, CheckoutsRepository } from './checkouts.repository';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

const expiredComment = 'Checkout expired before payment';

/**
 * Checkout records. How a checkout ends is decided by outlet-service, where its money is booked
 * (the first payment or the first closing wins); the record follows that decision and sends
 * checkout.success or checkout.failed, once. It never ends a checkout on its own, so the record
 * cannot say FAILED while the ledger holds its money.
 */
@Injectable()
export class CheckoutsService {
  private readonly logger = new Logger(CheckoutsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly checkouts: CheckoutsRepository,
    private readonly idempotencyKeys: IdempotencyKeysRepository,
    private readonly outbox: Outbox,
    private readonly outlets: OutletServiceClient,
    private readonly env: Env,
  ) {}

  /**
   * Creates a checkout; with an Idempotency-Key, a retry of the same request gets the first
   * answer. A callBackUrl its events could never be delivered to is refused now, not at the
   * first delivery (without a DNS query: a name is checked when the callback is sent).
   */
  async create(
    { id: businessId, mode }: Pick<Business, 'id' | 'mode'>,
    request: CreateCheckoutRequest,
    idempotencyKey?: string,
  ): Promise<CreateCheckoutResponse> {
    if (request.callBackUrl) {
      await assertWebhookUrlAllowed(request.callBackUrl, {
        live: mode === 'live',
        allowPrivate: this.env.WEBHOOK_SANDBOX_ALLOW_PRIVATE,
        check: 'literal',
      });
    }
    if (!idempotencyKey) return this.insert(businessId, request);
    const hash = requestHash('create_checkout', request);
    return this.dataSource.transaction(async (em) => {
      const earlier = await this.idempotencyKeys.claim<CreateCheckoutResponse>(em, businessId, idempotencyKey, hash);
      if (earlier) {
        if (earlier.request_hash !== hash || !earlier.response) {
          throw apiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request');
        }
        return earlier.response;
      }
      const response = await this.insert(businessId, request, em);
      await this.idempotencyKeys.saveResponse(em, businessId, idempotencyKey, response);
      return response;
    });
  }

  private async insert(
    businessId: string,
    request: CreateCheckoutRequest,
    em?: EntityManager,
  ): Promise<CreateCheckoutResponse> {
    const reference = `CHK-${newUlid()}`;
    await this.checkouts.insert(businessId, { reference, request, ttlMinutes: this.env.CHECKOUT_TTL_MINUTES }, em);
    return { reference, link: checkoutLink(this.env.CHECKOUT_URL, reference) };
  }

  /**
   * The record as it is now. A checkout past its expiry that the expirer has not reached yet is
   * closed first, so it reads as the ledger decided (FAILED, or SUCCESS when money arrived in
   * time); while the ledger cannot be asked it reads PROCESSING.
   */
  async get(businessId: string, reference: string): Promise<CheckoutResponse> {
    const row = await this.closingIfExpired(() => this.checkouts.find(businessId, reference));
    if (!row) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${reference} not found`);
    return toResponse(row);
  }

  /** The checkout, if a payment by `method` may still start or continue on it. */
  async payable(businessId: string, reference: string, method: PaymentMethod): Promise<CheckoutResponse> {
    return requirePayable(await this.get(businessId, reference), method);
  }

  /**
   * The checkout behind a hosted page link, with its business's display name; null when the
   * reference is unknown. The link is the page's only credential, so the view is kept small.
   */
  async findForPage(reference: string): Promise<HostedCheckoutView | null> {
    const row = await this.closingIfExpired(() => this.checkouts.findWithBusiness(reference));
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
   * Ends the record as the ledger decided and queues its event, once: the statement ends only a
   * record still PROCESSING, so a second call (a command's answer and the outcome event both
   * bring it) changes nothing. `known` saves reading the record when the caller has it.
   */
  async applyOutcome(outcome: CheckoutOutcome, known?: CheckoutResponse): Promise<void> {
    const checkout = known ?? (await this.current(outcome.businessId, outcome.checkoutReference));
    if (!checkout) return;
    if (checkout.transactionStatus === 'PROCESSING') {
      const at = new Date();
      await this.checkouts.end(outcome, at, this.outbox.row(outcomeEvent(outcome, checkout, at)));
      outboxCommitted(this.dataSource);
    } else if (checkout.transactionStatus !== outcome.status) {
      this.logger.error(
        { checkoutReference: outcome.checkoutReference, recorded: checkout.transactionStatus, decided: outcome.status },
        'checkout record disagrees with the ledger',
      );
    }
  }

  /** The record as stored, without closing an expired one. */
  private async current(businessId: string, reference: string): Promise<CheckoutResponse | null> {
    const row = await this.checkouts.find(businessId, reference);
    return row ? toResponse(row) : null;
  }

  /** Asks the ledger to end checkouts FAILED; each ends as it decides (SUCCESS if money won the race). */
  async close(closings: CheckoutClosing[]): Promise<CheckoutOutcome[]> {
    if (closings.length === 0) return [];
    const outcomes = await this.outlets.send({ type: 'closeCheckouts', checkouts: closings });
    for (const outcome of outcomes) await this.applyOutcome(outcome);
    return outcomes;
  }

  /** Closes checkouts past their expiry; returns how many it asked about. Replicas may overlap: closing is idempotent. */
  async expireDue(limit = 100): Promise<number> {
    const due = await this.checkouts.dueForExpiry(limit);
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
}

/** checkout.success or checkout.failed, with the common eventData fields; also to the callback URL. */
function outcomeEvent(outcome: CheckoutOutcome, checkout: CheckoutResponse, at: Date): NewEvent<PartnerEventV1Payload> {
  // Figures made up here would tell the partner a fee the ledger did not take.
  if (outcome.status === 'SUCCESS' && !outcome.charge) {
    throw new Error(
      `checkout ${outcome.checkoutReference} was paid, but its outcome lacks the charge the ledger booked`,
    );
  }
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
        // A paid checkout's charge, as the ledger booked it (checked above); a failed one cost nothing.
        fee: outcome.charge?.fee ?? '0',
        commission: outcome.charge?.commission ?? '0',
        netAmount: outcome.charge?.netAmount ?? checkout.amount,
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

/** The checkout, if a payment by `method` may still start or continue on it; 422 CHECKOUT_NOT_PAYABLE otherwise. */
export function requirePayable(checkout: CheckoutResponse, method: PaymentMethod): CheckoutResponse {
  if (checkout.transactionStatus !== 'PROCESSING' || Date.parse(checkout.expiresAt) <= Date.now()) {
    throw notPayable(checkout);
  }
  if (!checkout.paymentMethod.includes(method)) {
    throw apiError('CHECKOUT_NOT_PAYABLE', `Checkout ${checkout.reference} does not accept ${method}`);
  }
  return checkout;
}

/** 422 CHECKOUT_NOT_PAYABLE for a checkout that has ended (or expired), saying how. */
export function notPayable(checkout: CheckoutResponse): DomainError {
  const state = checkout.transactionStatus === 'PROCESSING' ? 'expired' : checkout.transactionStatus.toLowerCase();
  return apiError('CHECKOUT_NOT_PAYABLE', `Checkout ${checkout.reference} is ${state} and cannot be paid`);
}
