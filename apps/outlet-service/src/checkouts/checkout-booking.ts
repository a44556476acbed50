import { Injectable } from '@nestjs/common';
import { CheckoutDecidedV1, CheckoutDecidedV1Payload, CheckoutOutcome, Topics } from '@payments/contracts';
import { Outbox } from '@payments/platform-outbox';
import { EntityManager } from 'typeorm';

import { creditFigures } from '../money/pricing.service';
import { RailCredits } from '../money/rail-credits';
import { WalletsRepository } from '../money/wallets.repository';
import { productOf } from './checkout-decisions';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';

/**
 * The money of a checkout a payment just decided, whatever the method: rail → settlement wallet
 * less the method's fee, the charge kept on the outcome, and the outcome sent to the gateway, in
 * the caller's transaction.
 */
@Injectable()
export class CheckoutBooking {
  constructor(
    private readonly wallets: WalletsRepository,
    private readonly railCredits: RailCredits,
    private readonly outcomes: CheckoutOutcomesRepository,
    private readonly outbox: Outbox,
  ) {}

  async book(
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

  /** checkout.decided to the gateway, whose record follows it. */
  async announce(em: EntityManager, outcome: CheckoutOutcome): Promise<void> {
    await this.outbox.enqueue<CheckoutDecidedV1Payload>(em, {
      topic: Topics.checkoutPayments,
      type: CheckoutDecidedV1,
      key: outcome.businessId,
      businessId: outcome.businessId,
      payload: outcome,
    });
  }
}
