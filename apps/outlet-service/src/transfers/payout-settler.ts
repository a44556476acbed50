import { Injectable } from '@nestjs/common';
import { PartnerEvents } from '@payments/contracts';
import { DataSource, EntityManager } from 'typeorm';

import { PartnerEventsOutbox } from '../events/partner-events';
import { LedgerService } from '../money/ledger.service';
import { noCharge } from '../money/price';
import { creditPostings, feeWalletIds } from '../money/pricing.service';
import { transactionEvent } from '../money/transaction-event';
import { WalletsRepository } from '../money/wallets.repository';
import { PayoutSettings } from '../rails/payout-settings';
import { RailSettler } from '../rails/rail-settler';
import { PayoutRow, PayoutsRepository } from './payouts.repository';

/**
 * The sandbox bank rail settling payouts: each due payout, in its own transaction, either
 * posts its hold (deposit wallet → rail, less the fee quoted when it was asked for) or releases
 * it, and emits the outcome.
 */
@Injectable()
export class PayoutSettler extends RailSettler<PayoutRow> {
  constructor(
    dataSource: DataSource,
    private readonly payouts: PayoutsRepository,
    private readonly wallets: WalletsRepository,
    private readonly ledger: LedgerService,
    private readonly events: PartnerEventsOutbox,
    private readonly settings: PayoutSettings,
  ) {
    super(dataSource, settings.pollIntervalMs);
  }

  protected lockNextDue(em: EntityManager): Promise<PayoutRow | undefined> {
    return this.payouts.lockNextDue(em);
  }

  protected async settle(em: EntityManager, payout: PayoutRow): Promise<void> {
    const amount = BigInt(payout.amount);
    const charge = { fee: BigInt(payout.fee), commission: BigInt(payout.commission) };
    const system = await this.wallets.systemWalletIds(em, payout.business_id);
    const locked = await this.wallets.lock(em, payout.business_id, [
      payout.wallet_id,
      system.rail,
      ...feeWalletIds(charge, system),
    ]);
    const deposit = locked.get(payout.wallet_id)!;
    // Release first: the hold is what made the money unavailable.
    await this.wallets.changeHeld(em, deposit.id, -amount);
    deposit.heldBalance -= amount;
    const succeeded = !this.settings.fails(payout.account_number);
    // The beneficiary's bank gets amount − fee; a rejected payout costs nothing.
    const entry = succeeded
      ? await this.ledger.post(em, {
          businessId: payout.business_id,
          kind: 'payout',
          reference: payout.reference,
          narration: payout.narration,
          postings: creditPostings(deposit, locked.get(system.rail)!, amount, charge, {
            revenue: locked.get(system.revenue)!,
            commission: locked.get(system.settlement)!,
          }),
        })
      : null;
    const status = succeeded ? 'SUCCESS' : 'FAILED';
    const settledAt = await this.payouts.settle(em, payout.business_id, payout.id, status);
    const eventData = transactionEvent({
      productType: 'payout',
      amount: payout.amount,
      charge: succeeded ? charge : noCharge,
      transactionStatus: status,
      transactionReference: payout.reference,
      comment: succeeded ? payout.narration : 'The beneficiary bank rejected the transfer; the hold was released',
      createdAt: settledAt.toISOString(),
      transactionAccount: deposit.accountNumber?.trim() ?? deposit.id,
      transactionType: 'DEBIT',
      beneficiary: { name: payout.account_name, accountNumber: payout.account_number, bankCode: payout.bank_code },
      details: { walletId: deposit.id, journalEntryId: entry?.id ?? null, outletId: deposit.outletId },
    });
    await this.events.add(
      em,
      payout.business_id,
      succeeded ? PartnerEvents.bankTransferSuccess : PartnerEvents.bankTransferFailed,
      eventData,
    );
  }
}
