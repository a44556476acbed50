import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

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
  form: 'The refund form was incomplete, or is not one shown to you in this session. Start again from the payment.',
  live: 'Refunds of live payments cannot be made yet.',
  unreadable: "The payment's refunds cannot be read right now, so no refund can be asked for. Try again in a moment.",
  reused: "This refund was already asked for with another reason. The payment's page lists its refunds.",
  unanswered:
    'The refund could not be confirmed yet, and may still be made. Trying again here is safe: it refunds once.',
  unrecorded: 'The refund could not be recorded, so nothing was refunded. Try again in a moment.',
} as const;

/** A refund as its confirmation carries it: the key it is made with, and the seal that shows this session was shown it. */
export interface RefundConfirmation extends RefundIntent {
  key: string;
  seal: string;
}

/** The most refunds of one payment the dashboard counts: past them, refunds go through the API. */
const refundsCounted = 100;

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
 * is made from the payment, the amount and how many refunds of that amount the payment had when
 * the refund was asked for: the same refund asked for again (a double click, the back button, a reload, a second
 * tab, another member) before it is made has the same key and is made once; once it is made the
 * count has moved, so a deliberate second refund of the same amount gets a key of its own, after
 * a confirmation that lists the first. The confirmation is sealed to the member's session, so
 * none is accepted that was not shown to them, for other figures; a confirmation that was sent
 * stays valid with its session, so a retry after a lost answer is always the same refund. Every
 * request is in the audit trail before it is sent.
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
    if (member.business_mode !== 'test') return refundRefusals.live;
    if (typeof amount !== 'string' || typeof reason !== 'string' || reference.length > 100) return refundRefusals.form;
    const kobo = amount.trim() === '' ? '' : koboFromNaira(amount);
    if (kobo === undefined || (kobo !== '' && !isKoboAmount(kobo))) return refundRefusals.amount;
    if (reason.trim().length > 200) return refundRefusals.reason;
    return { reference, amount: kobo, reason: reason.trim() };
  }

  /** The confirmation of `intent` and the payment's refunds so far, or why none can be shown. */
  async confirmation(
    member: Member,
    sessionToken: string,
    intent: RefundIntent,
  ): Promise<{ confirmation: RefundConfirmation; refunds: RefundResponse[] } | string> {
    const refunds = await this.of(member, intent.reference);
    if (refunds === undefined || refunds.length >= refundsCounted) return refundRefusals.unreadable;
    // Refunds of other amounts leave the key as it was: only one of this amount means it was made.
    const sameAmount = refunds.filter((refund) => intent.amount === '' || refund.amount === intent.amount);
    const key = refundKey(intent, sameAmount.length);
    return { confirmation: { ...intent, key, seal: seal(sessionToken, member, intent, key) }, refunds };
  }

  /** The refund a posted confirmation carries, if this session was shown it; else why not. */
  confirmed(
    member: Member,
    sessionToken: string,
    form: Record<string, unknown> | undefined,
  ): RefundConfirmation | string {
    if (!mayRefund(member.role)) return refundRefusals.role;
    const fields = ['reference', 'amount', 'reason', 'key', 'seal'].map((name) => form?.[name]);
    if (!fields.every((field) => typeof field === 'string')) return refundRefusals.form;
    const [reference, amount, reason, key, given] = fields as string[];
    const expected = Buffer.from(seal(sessionToken, member, { reference, amount, reason }, key));
    const givenBytes = Buffer.from(given);
    const matches = givenBytes.length === expected.length && timingSafeEqual(givenBytes, expected);
    return matches ? { reference, amount, reason, key, seal: given } : refundRefusals.form;
  }

  /** Makes the refund once per key; a DomainError says why it was not (503: not known yet). */
  async make(member: Member, confirmation: RefundConfirmation, clientAddress: string): Promise<RefundResponse> {
    const { key, ...intent } = confirmation;
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
    return this.refunds.create(business, request, key).catch((error: unknown) => {
      // The same refund (payment, amount, refunds so far) asked for again with another reason.
      if (error instanceof DomainError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
        throw new DomainError('IDEMPOTENCY_KEY_REUSED', refundRefusals.reused, error.status);
      }
      throw error;
    });
  }

  /** The payment's refunds so far, newest first, or undefined when the ledger does not answer. */
  async of(member: Member, reference: string): Promise<RefundResponse[] | undefined> {
    const business = await this.businesses.find(member.business_id);
    if (!business) return [];
    try {
      return (await this.refunds.list(business, { transactionReference: reference, limit: refundsCounted })).items;
    } catch (error) {
      if (error instanceof DomainError) return undefined; // the ledger did not answer, or could not
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

/** The key of a refund of `intent`'s payment and amount, asked for when the payment had `refundsSoFar` of that amount. */
function refundKey(intent: RefundIntent, refundsSoFar: number): string {
  const digest = createHash('sha256').update(JSON.stringify([intent.reference, intent.amount, refundsSoFar]));
  return `dashboard-${digest.digest('base64url').slice(0, 32)}`;
}

/** Shows a confirmation was made for this session, for these figures and this key. */
function seal(sessionToken: string, member: Member, intent: RefundIntent, key: string): string {
  return createHmac('sha256', sessionToken)
    .update(
      JSON.stringify(['dashboard refund', member.business_id, intent.reference, intent.amount, intent.reason, key]),
    )
    .digest('base64url');
}
