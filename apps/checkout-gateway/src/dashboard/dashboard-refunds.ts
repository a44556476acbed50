import { createHmac, timingSafeEqual } from 'node:crypto';

import { Injectable, Logger } from '@nestjs/common';
import { isKoboAmount, RefundResponse, TransactionResponse } from '@payments/contracts';
import { apiError, DomainError } from '@payments/platform-envelope';

import { BusinessesService } from '../businesses/businesses.service';
import { RefundsService } from '../refunds/refunds.service';
import { Member, MembersRepository } from './members.repository';
import { koboFromNaira } from './naira-input';
import { mayRefund } from './roles';

/** A refund as a member asks for it: of which payment, how much (kobo; empty for all that is left), and why. */
export interface RefundIntent {
  reference: string;
  amount: string;
  reason: string;
}

export const refundRefusals = {
  role: 'Only owners and operations can refund. Ask one of them.',
  amount:
    'Give the amount in naira, such as 1500 or 1,500.50, at most ₦1,000,000,000, or leave it empty to refund all that is left.',
  reason: 'Keep the reason to 200 characters.',
  form: 'The refund form was incomplete or has expired. Start again from the payment.',
  unanswered:
    'The refund could not be confirmed yet, and may still be made. Trying again here is safe: it refunds once.',
  unrecorded: 'The refund could not be recorded, so nothing was refunded. Try again in a moment.',
} as const;

/** How long a confirmation stays valid: one window, and the one after it. */
const keyWindowMs = 10 * 60_000;

/** Payments a refund may return: a paid checkout or POS payment (outlet-service has the last word). */
export function refundable(item: TransactionResponse): boolean {
  return (
    item.transactionType === 'CREDIT' &&
    item.transactionStatus === 'SUCCESS' &&
    (item.productType === 'checkout' || item.productType === 'pos')
  );
}

/**
 * Refunds made from the dashboard, through the API's RefundsService. A refund's idempotency key
 * is derived from the session and what is asked (payment, amount, reason) within a ten-minute
 * window: a confirmation posted twice, shown again by the back button or a reload, or asked for
 * again from the payment's page is the same refund, and a key the server did not make, for other
 * figures or past its window, is refused before anything is sent. Every request is in the audit
 * trail before it is sent, so one whose answer was lost is recorded all the same.
 */
@Injectable()
export class DashboardRefunds {
  private readonly logger = new Logger(DashboardRefunds.name);

  constructor(
    private readonly refunds: RefundsService,
    private readonly businesses: BusinessesService,
    private readonly members: MembersRepository,
  ) {}

  /** The intent from a payment page's form (amount in naira), or why it is refused. */
  review(member: Member, reference: string, amount: unknown, reason: unknown): RefundIntent | string {
    if (!mayRefund(member.role)) return refundRefusals.role;
    if (typeof amount !== 'string' || typeof reason !== 'string') return refundRefusals.form;
    const kobo = amount.trim() === '' ? '' : koboFromNaira(amount);
    if (kobo === undefined || (kobo !== '' && !isKoboAmount(kobo))) return refundRefusals.amount;
    if (reason.trim().length > 200) return refundRefusals.reason;
    return { reference, amount: kobo, reason: reason.trim() };
  }

  /** The intent a confirmation carries back, with its key, if the key is the one made for it in this session; else why not. */
  confirmed(
    member: Member,
    sessionToken: string,
    form: Record<string, unknown> | undefined,
  ): { intent: RefundIntent; key: string } | string {
    if (!mayRefund(member.role)) return refundRefusals.role;
    const { reference, amount, reason, key } = form ?? {};
    if (![reference, amount, reason, key].every((field) => typeof field === 'string')) return refundRefusals.form;
    const intent = { reference, amount, reason } as RefundIntent;
    if (!intent.reference || intent.reference.length > 100 || (intent.amount !== '' && !isKoboAmount(intent.amount))) {
      return refundRefusals.form;
    }
    if (intent.reason.length > 200) return refundRefusals.reason;
    return keyMatches(sessionToken, member, intent, key as string)
      ? { intent, key: key as string }
      : refundRefusals.form;
  }

  /** The key a confirmation shown now carries. */
  keyFor(sessionToken: string, member: Member, intent: RefundIntent): string {
    return refundKey(sessionToken, member, intent, Math.floor(Date.now() / keyWindowMs));
  }

  /** Makes the refund once per key; a DomainError says why it was not (503: not known yet). */
  async make(member: Member, intent: RefundIntent, key: string, clientAddress: string): Promise<RefundResponse> {
    const business = await this.businesses.find(member.business_id);
    if (!business) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${intent.reference} not found`);
    try {
      await this.members.audit({
        businessId: member.business_id,
        actorKind: 'member',
        actor: member.email,
        action: 'refund.requested',
        subject: `${intent.amount ? `${intent.amount} kobo` : 'all that is left'} of ${intent.reference} (${key})`,
        clientAddress,
      });
    } catch (error) {
      this.logger.error({ err: error }, 'refund request not recorded; nothing was sent');
      throw new DomainError('SERVICE_UNAVAILABLE', refundRefusals.unrecorded, 503);
    }
    const request = {
      transactionReference: intent.reference,
      ...(intent.amount ? { amount: intent.amount } : {}),
      ...(intent.reason ? { reason: intent.reason } : {}),
    };
    return this.refunds.create(business, request, key);
  }

  /** The payment's refunds so far, newest first, or undefined when the ledger does not answer. */
  async of(member: Member, reference: string): Promise<RefundResponse[] | undefined> {
    const business = await this.businesses.find(member.business_id);
    if (!business) return [];
    try {
      return (await this.refunds.list(business, { transactionReference: reference, limit: 20 })).items;
    } catch (error) {
      if (error instanceof DomainError && error.status === 503) return undefined;
      throw error;
    }
  }

  /** A refund of the business, or the DomainError the API would answer. */
  async get(member: Member, reference: string): Promise<RefundResponse> {
    const business = await this.businesses.find(member.business_id);
    if (!business) throw apiError('REFUND_NOT_FOUND', `Refund ${reference} not found`);
    return this.refunds.get(business, reference);
  }
}

function refundKey(sessionToken: string, member: Member, intent: RefundIntent, window: number): string {
  const mac = createHmac('sha256', sessionToken)
    .update(
      JSON.stringify(['dashboard refund', member.business_id, intent.reference, intent.amount, intent.reason, window]),
    )
    .digest('base64url');
  return `dashboard-${mac.slice(0, 32)}`;
}

function keyMatches(sessionToken: string, member: Member, intent: RefundIntent, key: string): boolean {
  const window = Math.floor(Date.now() / keyWindowMs);
  return [window, window - 1].some((each) => {
    const expected = Buffer.from(refundKey(sessionToken, member, intent, each));
    const given = Buffer.from(key);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
