import { Injectable } from '@nestjs/common';
import { CheckoutAccount, CreditVirtualAccountRequest, CreditVirtualAccountResult } from '@payments/contracts';
import { apiError, requireSandboxRail } from '@payments/platform-envelope';
import { DataSource, EntityManager } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { MoneyCommandsRepository } from '../money/money-commands.repository';
import { CheckoutAccountsRepository } from './checkout-accounts.repository';
import { CheckoutBooking } from './checkout-booking';
import { paidByTransfer, transferRefusal } from './checkout-decisions';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';

/** Checkouts paid by bank transfer to a dynamic account issued for each. */
@Injectable()
export class TransferCheckoutPayments {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: CheckoutAccountsRepository,
    private readonly businesses: BusinessesRepository,
    private readonly commands: MoneyCommandsRepository,
    private readonly outcomes: CheckoutOutcomesRepository,
    private readonly booking: CheckoutBooking,
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
  async receive(
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
        const { outcome, decided } = await this.outcomes.decide(
          em,
          paidByTransfer(account.business_id, account.checkout_reference, sessionId),
        );
        if (!decided) throw apiError('INVALID_TRANSFER', transferRefusal(accountNumber, outcome));
        const booked = await this.booking.book(em, outcome, account.amount);
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
}
