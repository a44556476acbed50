import { Injectable } from '@nestjs/common';
import {
  CheckoutDecidedV1,
  CheckoutDecidedV1Payload,
  CheckoutOutcome,
  CheckoutPaymentResult,
  PartnerEvents,
  Topics,
} from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { Outbox } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { PartnerEventsOutbox } from '../events/partner-events';
import { LedgerService } from '../money/ledger.service';
import { MoneyCommandsRepository } from '../money/money-commands.repository';
import { CheckoutAlreadyDecided, MoneyMovesRepository } from '../money/money-moves.repository';
import { creditFigures } from '../money/pricing.service';
import { RailCredits } from '../money/rail-credits';
import { transactionEvent } from '../money/transaction-event';
import { WalletsRepository } from '../money/wallets.repository';
import { RefundsRepository } from '../refunds/refunds.repository';
import { CheckoutBooking } from './checkout-booking';
import { CapturedCard, paidByCard, suspenseReason } from './checkout-decisions';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';

/**
 * Card charges the issuer captured. The money was taken, so it is booked whatever happened to
 * the checkout meanwhile: to the settlement wallet when it pays the checkout, else to the
 * suspense wallet with a refund record.
 */
@Injectable()
export class CardCheckoutPayments {
  constructor(
    private readonly dataSource: DataSource,
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
    private readonly booking: CheckoutBooking,
  ) {}

  /**
   * Once per charge, however often its event or the gateway asks: the ledger answers a repeat
   * as it answered the first. The usual case (it pays the checkout) is one database round trip:
   * move_money decides the outcome and books the money together.
   */
  async pay(charge: CapturedCard): Promise<CheckoutPaymentResult> {
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
      if (error instanceof CheckoutAlreadyDecided) return this.payAfterEnd(charge);
      throw error;
    }
  }

  /** The checkout had ended when the card was captured: kept for a refund, or answered as the first time. */
  private async payAfterEnd(charge: CapturedCard): Promise<CheckoutPaymentResult> {
    return this.dataSource.transaction(async (em) => {
      await this.businesses.require(em, charge.businessId);
      const key = { namespace: 'card-charge', reference: charge.chargeId } as const;
      const request = { checkoutReference: charge.checkoutReference, amount: charge.amount };
      return this.commands.once(em, charge.businessId, key, 'card_charge', request, async () => {
        const { outcome, decided } = await this.outcomes.decide(em, paidByCard(charge));
        if (decided) return { outcome: (await this.booking.book(em, outcome, charge.amount)).outcome, accepted: true };
        await this.holdForRefund(em, charge, outcome);
        return { outcome, accepted: false };
      });
    });
  }

  /** Rail → suspense wallet, a refund record and refund.pending: captured money is never lost. */
  private async holdForRefund(em: EntityManager, charge: CapturedCard, decided: CheckoutOutcome) {
    const { businessId, checkoutReference, chargeId } = charge;
    const [railId, suspenseId] = [
      (await this.wallets.systemWallet(em, businessId, 'rail')).id,
      (await this.wallets.systemWallet(em, businessId, 'suspense')).id,
    ];
    const locked = await this.wallets.lock(em, businessId, [railId, suspenseId]);
    const reason = suspenseReason(decided);
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
}
