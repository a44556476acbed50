import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { BankTransferRequest, BankTransferResponse } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';

import { MoneyCommands } from '../ledger/money-commands';
import { TenantsRepository } from '../tenants/tenants.repository';
import { availableBalance, WalletsRepository } from '../wallets/wallets.repository';
import { PayoutSettings } from './payout-settings';

/**
 * A payout from a deposit wallet: the amount is held at once (available drops, ledger does
 * not) and the bank rail settles it later (PayoutSettler), posting or releasing the hold.
 */
@Injectable()
export class BankTransferUseCase {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenants: TenantsRepository,
    private readonly wallets: WalletsRepository,
    private readonly commands: MoneyCommands,
    private readonly settings: PayoutSettings,
  ) {}

  async execute(businessId: string, request: BankTransferRequest): Promise<BankTransferResponse> {
    return this.dataSource.transaction(async (em) => {
      const tenant = await this.tenants.require(em, businessId);
      if (tenant.mode !== 'test') throw apiError('SANDBOX_ONLY', 'Live bank payouts are not available yet');
      const key = { namespace: 'transfer', reference: request.reference } as const;
      const claim = await this.commands.claim<BankTransferResponse>(em, businessId, key, 'bank_transfer', request);
      if (!claim.first) return claim.result;

      const source = (await this.wallets.lock(em, businessId, [request.sourceWalletId])).get(request.sourceWalletId)!;
      if (source.type !== 'deposit')
        throw apiError('INVALID_TRANSFER', 'Bank transfers are paid from a deposit wallet');
      const amount = BigInt(request.amount);
      if (availableBalance(source) < amount)
        throw apiError('INSUFFICIENT_FUNDS', `Wallet ${source.id} has insufficient available balance`);

      const [payout] = (await em.query(
        `INSERT INTO outlets.payouts (id, business_id, reference, wallet_id, amount, bank_code, account_number, account_name, narration, status, settle_after)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'PROCESSING', now() + make_interval(secs => $10)) RETURNING created_at`,
        [
          newUlid(),
          businessId,
          request.reference,
          source.id,
          request.amount,
          request.bankCode,
          request.accountNumber,
          request.accountName,
          request.narration ?? null,
          this.settings.settleDelayMs / 1000,
        ],
      )) as { created_at: Date }[];
      await this.wallets.changeHeld(em, source.id, amount);
      const response: BankTransferResponse = {
        reference: request.reference,
        transactionStatus: 'PROCESSING',
        amount: request.amount,
        sourceWalletId: source.id,
        bankCode: request.bankCode,
        accountNumber: request.accountNumber,
        accountName: request.accountName,
        narration: request.narration ?? null,
        createdAt: payout.created_at.toISOString(),
      };
      return this.commands.complete(em, businessId, key, response);
    });
  }
}
