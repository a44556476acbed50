import { Injectable } from '@nestjs/common';
import {
  CardChargeSucceededV1Payload,
  CheckoutAccount,
  CheckoutClosing,
  CheckoutDecidedV1,
  CheckoutDecidedV1Payload,
  CheckoutOutcome,
  CheckoutPaymentResult,
  CreditVirtualAccountRequest,
  CreditVirtualAccountResult,
  PartnerEvents,
  Topics,
} from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { apiError, requireSandboxRail } from '@payments/platform-envelope';
import { Outbox } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { PartnerEventsOutbox } from '../events/partner-events';
import { LedgerService } from '../money/ledger.service';
import { MoneyCommandsRepository } from '../money/money-commands.repository';
import { CheckoutAlreadyDecided, MoneyMovesRepository } from '../money/money-moves.repository';
import { Product } from '../money/price';
import { creditFigures } from '../money/pricing.service';
import { RailCredits } from '../money/rail-credits';
import { transactionEvent } from '../money/transaction-event';
import { WalletsRepository } from '../money/wallets.repository';
import { RefundsRepository } from '../refunds/refunds.repository';
import { CheckoutAccountsRepository } from './checkout-accounts.repository';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';

/** A card charge the issuer captured, as the gateway or card.charge.succeeded reports it. */
type CapturedCard = Pick<
  CardChargeSucceededV1Payload,
  'chargeId' | 'businessId' | 'checkoutReference' | 'amount' | 'maskedPan'
>;

/**
 * Money for checkouts paid by bank transfer, QR wallet or card, and the one place that decides
 * how a checkout ends. The first payment booked, or the first closing (expiry, a declined card),
 * wins in the ledger's own transaction; the gateway's record follows it. After that a
 * transfer or QR payment is refused, and money a card captured anyway waits in the suspense
 * wallet with a refund record.
 */
@Injectable()
export class CheckoutPaymentsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: CheckoutAccountsRepository,
    private readonly businesses: BusinessesRepository,
    private readonly wallets: WalletsRepository,
    private readonly ledger: LedgerService,
    private readonly commands: MoneyCommandsRepository,
    private readonly outcomes: CheckoutOutcomesRepository,
    private readonly refunds: RefundsRepository,
    private readonly outbox: Outbox,
    private readonly events: PartnerEventsOutbox,
    private readonly moves: MoneyMovesRepository,
    private readonly railCredits: RailCredits,
  ) {}

  /**
   * The checkout's dynamic account; asking again returns the same one. Only the sandbox bank
   * issues accounts: a live business is refused rather than shown an account no bank knows.
   */
  async assignAccount(
    businessId: string,
    checkoutReference: string,
    amount: string,
    expiresAt: string,
  ): Promise<CheckoutAccount> {
    return this.dataSource.transaction(async (em) => {
      const tenant = await this.businesses.require(em, businessId);
      requireSandboxRail(tenant.mode, 'Bank transfer payments');
      const row = await this.accounts.assign(em, businessId, { checkoutReference, amount, expiresAt });
      return {
        accountNumber: row.account_number.trim(),
        accountName: `${tenant.name} checkout`,
        bankName: 'Sandbox Bank',
        amount: row.amount,
        expiresAt: row.expires_at.toISOString(),
      };
    });
  }

  /**
   * Money arrived on an account number that is not a wallet: maybe a checkout's (null when not,
   * or when `holder` is given and is not the checkout's business). The rail's session id makes a
   * repeated notification answer as the first one did. The sandbox bank refuses what the checkout
   * cannot take, so nothing lands half-matched.
   */
  async receiveTransfer(
    em: EntityManager,
    accountNumber: string,
    sessionId: string,
    request: CreditVirtualAccountRequest,
    holder?: string,
  ): Promise<CreditVirtualAccountResult | null> {
    const account = await this.accounts.lockSandboxAccount(em, accountNumber);
    if (!account || (holder !== undefined && account.business_id !== holder)) return null;
    const key = { namespace: 'session', reference: sessionId } as const;
    return this.commands.once(
      em,
      account.business_id,
      key,
      'checkout_transfer',
      { accountNumber, amount: request.amount },
      async () => {
        if (request.amount !== account.amount) {
          throw apiError('INVALID_TRANSFER', `Account ${accountNumber} accepts exactly ${account.amount} kobo`);
        }
        if (account.expires_at <= new Date()) {
          throw apiError('INVALID_TRANSFER', `Account ${accountNumber} has expired`);
        }
        const { outcome, decided } = await this.outcomes.decide(em, {
          businessId: account.business_id,
          checkoutReference: account.checkout_reference,
          status: 'SUCCESS',
          method: 'pay-with-transfer',
          paymentId: sessionId,
          comment: 'Paid by bank transfer',
        });
        if (!decided) {
          const why = outcome.status === 'SUCCESS' ? 'has already been paid' : 'has ended';
          throw apiError('INVALID_TRANSFER', `The checkout behind account ${accountNumber} ${why}`);
        }
        const booked = await this.book(em, outcome, account.amount);
        await this.accounts.markPaid(em, account.business_id, accountNumber);
        return {
          sessionId,
          transactionReference: booked.entryId,
          accountNumber,
          amount: account.amount,
          ...booked.outcome.charge!,
          transactionStatus: 'SUCCESS',
          checkoutOutcome: booked.outcome,
        };
      },
    );
  }

  /**
   * A card charge succeeded: the money was captured, so it is booked whatever happened to the
   * checkout meanwhile: to the settlement wallet when it pays the checkout, else to the suspense
   * wallet for a refund. Once per charge, however often its event or the gateway asks: the
   * ledger answers a repeat as it answered the first. The usual case (it pays the checkout)
   * takes one database round trip.
   */
  async payCard(charge: CapturedCard): Promise<CheckoutPaymentResult> {
    const amount = BigInt(charge.amount);
    const priced = await this.railCredits.priced(this.dataSource.manager, charge.businessId, 'card', amount);
    const outcome = { ...paidByCard(charge), charge: creditFigures(amount, priced.move.charge) };
    try {
      return await this.moves.move<CheckoutPaymentResult>({
        ...priced.move,
        businessId: charge.businessId,
        key: { namespace: 'card-charge', reference: charge.chargeId },
        kind: 'card_charge',
        request: { checkoutReference: charge.checkoutReference, amount: charge.amount },
        destination: priced.system.settlement,
        walletTypes: ['rail', 'settlement'],
        entryId: newUlid(),
        entryKind: 'checkout',
        entryReference: charge.checkoutReference,
        narration: `Checkout ${charge.checkoutReference}`,
        at: new Date(),
        result: { outcome, accepted: true },
        event: this.outbox.row<CheckoutDecidedV1Payload>({
          topic: Topics.checkoutPayments,
          type: CheckoutDecidedV1,
          key: charge.businessId,
          businessId: charge.businessId,
          payload: outcome,
        }),
        outcome,
      });
    } catch (error) {
      if (error instanceof CheckoutAlreadyDecided) return this.payCardAfterEnd(charge);
      throw error;
    }
  }

  /** The checkout had ended when the card was captured: kept for a refund, or answered as the first time. */
  private async payCardAfterEnd(charge: CapturedCard): Promise<CheckoutPaymentResult> {
    return this.dataSource.transaction(async (em) => {
      await this.businesses.require(em, charge.businessId);
      const key = { namespace: 'card-charge', reference: charge.chargeId } as const;
      const request = { checkoutReference: charge.checkoutReference, amount: charge.amount };
      return this.commands.once(em, charge.businessId, key, 'card_charge', request, async () => {
        const { outcome, decided } = await this.outcomes.decide(em, paidByCard(charge));
        if (decided) return { outcome: (await this.book(em, outcome, charge.amount)).outcome, accepted: true };
        await this.holdForRefund(em, charge, outcome);
        return { outcome, accepted: false };
      });
    });
  }

  /** The sandbox wallet app paid the QR code: booked and decided together, or refused. */
  async payQr(
    businessId: string,
    checkoutReference: string,
    amount: string,
    paymentId: string,
  ): Promise<CheckoutPaymentResult> {
    return this.dataSource.transaction(async (em) => {
      await this.businesses.require(em, businessId);
      const key = { namespace: 'qr-payment', reference: paymentId } as const;
      return this.commands.once(em, businessId, key, 'qr_payment', { checkoutReference, amount }, async () => {
        const { outcome, decided } = await this.outcomes.decide(em, {
          businessId,
          checkoutReference,
          status: 'SUCCESS',
          method: 'qr-wallet',
          paymentId,
          comment: 'Paid by QR wallet',
        });
        if (!decided) {
          throw apiError(
            'CHECKOUT_NOT_PAYABLE',
            `Checkout ${checkoutReference} has already ${outcome.status === 'SUCCESS' ? 'been paid' : 'ended'}`,
          );
        }
        return { outcome: (await this.book(em, outcome, amount)).outcome, accepted: true };
      });
    });
  }

  /** Ends checkouts FAILED unless a payment decided them first; answers each one's outcome. */
  async close(closings: CheckoutClosing[]): Promise<CheckoutOutcome[]> {
    // One order for every caller, so two closers of overlapping batches queue instead of deadlocking.
    const ordered = [...closings].sort((a, b) => a.checkoutReference.localeCompare(b.checkoutReference));
    return this.dataSource.transaction(async (em) => {
      const outcomes: CheckoutOutcome[] = [];
      for (const closing of ordered) {
        const { outcome, decided } = await this.outcomes.decide(em, { ...closing, status: 'FAILED' });
        if (decided) await this.announce(em, outcome);
        outcomes.push(outcome);
      }
      return outcomes;
    });
  }

  /** Rail → settlement wallet less the fee, and the outcome sent to the gateway, in the caller's transaction. */
  private async book(
    em: EntityManager,
    decided: CheckoutOutcome,
    amount: string,
  ): Promise<{ entryId: string; outcome: CheckoutOutcome }> {
    const { businessId, checkoutReference } = decided;
    const settlementId = (await this.wallets.systemWalletIds(em, businessId)).settlement;
    const { entry, charge } = await this.railCredits.credit(em, {
      businessId,
      product: productOf(decided.method),
      walletId: settlementId,
      amount: BigInt(amount),
      kind: 'checkout',
      reference: checkoutReference,
      narration: `Checkout ${checkoutReference}`,
    });
    const outcome = { ...decided, charge: creditFigures(BigInt(amount), charge) };
    await this.outcomes.recordCharge(em, outcome);
    await this.announce(em, outcome);
    return { entryId: entry.id, outcome };
  }

  /** Rail → suspense wallet, a refund record and refund.pending: captured money is never lost. */
  private async holdForRefund(em: EntityManager, charge: CapturedCard, outcome: CheckoutOutcome) {
    const { businessId, checkoutReference, chargeId } = charge;
    const [railId, suspenseId] = [
      (await this.wallets.systemWallet(em, businessId, 'rail')).id,
      (await this.wallets.systemWallet(em, businessId, 'suspense')).id,
    ];
    const locked = await this.wallets.lock(em, businessId, [railId, suspenseId]);
    const reason =
      outcome.status === 'SUCCESS'
        ? `Checkout ${checkoutReference} was already paid${outcome.method ? ` by ${outcome.method}` : ''}`
        : `Checkout ${checkoutReference} had already ended: ${outcome.comment}`;
    const entry = await this.ledger.post(em, {
      businessId,
      kind: 'suspense',
      reference: chargeId,
      narration: reason,
      postings: [
        { wallet: locked.get(railId)!, amount: -BigInt(charge.amount) },
        { wallet: locked.get(suspenseId)!, amount: BigInt(charge.amount) },
      ],
    });
    const refund = await this.refunds.addPending(em, {
      businessId,
      transactionReference: chargeId,
      checkoutReference,
      amount: BigInt(charge.amount),
      reason,
      walletId: suspenseId,
    });
    await this.events.add(
      em,
      businessId,
      PartnerEvents.refundPending,
      transactionEvent({
        sessionId: chargeId,
        productType: 'card',
        amount: charge.amount,
        transactionStatus: 'PROCESSING',
        transactionReference: refund.reference,
        comment: reason,
        createdAt: refund.createdAt.toISOString(),
        transactionAccount: checkoutReference,
        transactionType: 'DEBIT',
        details: { checkoutReference, chargeId, maskedCard: charge.maskedPan, journalEntryId: entry.id },
      }),
    );
  }

  private async announce(em: EntityManager, outcome: CheckoutOutcome): Promise<void> {
    await this.outbox.enqueue<CheckoutDecidedV1Payload>(em, {
      topic: Topics.checkoutPayments,
      type: CheckoutDecidedV1,
      key: outcome.businessId,
      businessId: outcome.businessId,
      payload: outcome,
    });
  }
}

/** What a checkout payment is priced as. */
function productOf(method: CheckoutOutcome['method']): Product {
  if (method === 'card') return 'card';
  if (method === 'qr-wallet') return 'qr';
  return 'transfer';
}

/** The outcome a captured card asks for: the checkout paid by this charge. */
export function paidByCard(charge: CapturedCard): CheckoutOutcome {
  return {
    businessId: charge.businessId,
    checkoutReference: charge.checkoutReference,
    status: 'SUCCESS',
    method: 'card',
    paymentId: charge.chargeId,
    maskedCard: charge.maskedPan,
    comment: 'Paid by card',
  };
}
