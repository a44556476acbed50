import { Injectable } from '@nestjs/common';
import { CreditVirtualAccountRequest, CreditVirtualAccountResult, PartnerEvents } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { DataSource, EntityManager } from 'typeorm';

import { TransferCheckoutPayments } from '../checkouts/transfer-checkout-payments';
import { PartnerEventsOutbox } from '../events/partner-events';
import { MoneyCommandsRepository } from '../money/money-commands.repository';
import { RailCredits } from '../money/rail-credits';
import { transactionEvent } from '../money/transaction-event';
import { WalletsRepository } from '../money/wallets.repository';

export interface CreditOptions {
  /** The rail's session id; the gateway always gives one. */
  sessionId?: string;
  /**
   * The business that asked the sandbox simulator for this credit: only its own accounts take
   * it. Another business's account answers as an unknown number does, so a caller neither moves
   * money into it nor learns that it exists. With its Idempotency-Key, a retry with the same key
   * and body gets the first answer.
   */
  caller?: { businessId: string; idempotencyKey?: string };
}

/**
 * The sandbox bank rail's inbound transfer: money arrives on a virtual account number. The
 * rail's session id is the idempotency key, so a repeated notification credits once and
 * answers as the first one did.
 */
@Injectable()
export class CreditVirtualAccountUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly wallets: WalletsRepository,
    private readonly railCredits: RailCredits,
    private readonly commands: MoneyCommandsRepository,
    private readonly events: PartnerEventsOutbox,
    private readonly checkoutTransfers: TransferCheckoutPayments,
  ) {}

  async execute(
    accountNumber: string,
    request: CreditVirtualAccountRequest,
    options: CreditOptions = {},
  ): Promise<CreditVirtualAccountResult> {
    const sessionId = options.sessionId ?? request.sessionId ?? newUlid();
    return this.dataSource.transaction(async (em) => {
      const credit = () => this.credit(em, accountNumber, sessionId, request, options.caller?.businessId);
      if (!options.caller?.idempotencyKey) return credit();
      const { businessId, idempotencyKey } = options.caller;
      return this.commands.once(
        em,
        businessId,
        { namespace: 'idempotency-key', reference: idempotencyKey },
        'sandbox_credit',
        { accountNumber, ...request },
        credit,
      );
    });
  }

  private async credit(
    em: EntityManager,
    accountNumber: string,
    sessionId: string,
    request: CreditVirtualAccountRequest,
    holder: string | undefined,
  ): Promise<CreditVirtualAccountResult> {
    const forCheckout = await this.checkoutTransfers.receive(em, accountNumber, sessionId, request, holder);
    if (forCheckout) return forCheckout;
    const account = await this.wallets.byAccountNumber(em, accountNumber);
    // Sandbox money never lands in a live business's account, nor in another business's.
    const othersAccount = holder !== undefined && account?.businessId !== holder;
    if (!account || othersAccount || account.mode !== 'test' || account.type === 'rail') {
      throw apiError('VIRTUAL_ACCOUNT_NOT_FOUND', `Virtual account ${accountNumber} not found`);
    }
    const businessId = account.businessId;
    const key = { namespace: 'session', reference: sessionId } as const;
    return this.commands.once(em, businessId, key, 'funding', { ...request, accountNumber, sessionId }, async () => {
      const { entry, charge, wallet } = await this.railCredits.credit(em, {
        businessId,
        product: 'transfer',
        walletId: account.id,
        amount: BigInt(request.amount),
        kind: 'funding',
        reference: sessionId,
        narration: request.senderName ? `Transfer from ${request.senderName}` : null,
      });
      const eventData = transactionEvent({
        sessionId,
        productType: wallet.type === 'collection' ? 'collection' : 'deposit',
        amount: request.amount,
        charge,
        transactionStatus: 'SUCCESS',
        transactionReference: entry.id,
        createdAt: entry.createdAt.toISOString(),
        transactionAccount: accountNumber,
        transactionType: 'CREDIT',
        sender: {
          name: request.senderName ?? null,
          accountNumber: request.senderAccountNumber ?? null,
          bankCode: request.senderBankCode ?? null,
        },
        details: { walletId: wallet.id, outletId: wallet.outletId },
      });
      await this.events.add(em, businessId, PartnerEvents.fundAccountSuccess, eventData);
      return {
        sessionId,
        transactionReference: entry.id,
        accountNumber,
        amount: request.amount,
        fee: eventData.fee,
        commission: eventData.commission,
        netAmount: eventData.netAmount,
        transactionStatus: 'SUCCESS' as const,
      };
    });
  }
}
