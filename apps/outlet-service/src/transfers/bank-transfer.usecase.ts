import { Injectable } from '@nestjs/common';
import { BankTransferRequest, BankTransferResponse } from '@payments/contracts';
import { apiError, requireSandboxRail } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { MoneyCommandsRepository } from '../money/money-commands.repository';
import { creditFigures, PricingService } from '../money/pricing.service';
import { availableBalance, WalletsRepository } from '../money/wallets.repository';
import { PayoutSettings } from '../rails/payout-settings';
import { PayoutsRepository } from './payouts.repository';

/**
 * A payout from a deposit wallet: the amount is held at once (available drops, ledger does
 * not) and the bank rail settles it later (PayoutSettler), posting or releasing the hold.
 */
@Injectable()
export class BankTransferUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly payouts: PayoutsRepository,
    private readonly businesses: BusinessesRepository,
    private readonly wallets: WalletsRepository,
    private readonly commands: MoneyCommandsRepository,
    private readonly settings: PayoutSettings,
    private readonly pricing: PricingService,
  ) {}

  async execute(businessId: string, request: BankTransferRequest): Promise<BankTransferResponse> {
    return this.dataSource.transaction(async (em) => {
      const tenant = await this.businesses.require(em, businessId);
      requireSandboxRail(tenant.mode, 'Bank payouts');
      const key = { namespace: 'transfer', reference: request.reference } as const;
      const claim = await this.commands.claim<BankTransferResponse>(em, businessId, key, 'bank_transfer', request);
      if (!claim.first) return claim.result;

      const source = (await this.wallets.lock(em, businessId, [request.sourceWalletId])).get(request.sourceWalletId)!;
      if (source.type !== 'deposit') {
        throw apiError('INVALID_TRANSFER', 'Bank transfers are paid from a deposit wallet');
      }
      const amount = BigInt(request.amount);
      if (availableBalance(source) < amount) {
        throw apiError('INSUFFICIENT_FUNDS', `Wallet ${source.id} has insufficient available balance`);
      }
      // Priced now, by the plan in force when the partner asked; posted when the rail settles.
      const charge = await this.pricing.charge(em, businessId, 'payout', amount);
      if (charge.fee >= amount) {
        throw apiError('INVALID_TRANSFER', `amount must be more than the payout fee of ${charge.fee} kobo`);
      }

      const createdAt = await this.payouts.insert(em, businessId, {
        walletId: source.id,
        request,
        charge,
        settleAfterSeconds: this.settings.settleDelayMs / 1000,
      });
      await this.wallets.changeHeld(em, source.id, amount);
      const response: BankTransferResponse = {
        reference: request.reference,
        transactionStatus: 'PROCESSING',
        amount: request.amount,
        ...creditFigures(amount, charge),
        sourceWalletId: source.id,
        bankCode: request.bankCode,
        accountNumber: request.accountNumber,
        accountName: request.accountName,
        narration: request.narration ?? null,
        createdAt: createdAt.toISOString(),
      };
      return this.commands.complete(em, businessId, key, response);
    });
  }
}
