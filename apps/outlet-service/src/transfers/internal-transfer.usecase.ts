import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InternalTransferRequest, InternalTransferResponse, PartnerEvents } from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';
import { PartnerEventsOutbox } from '../events/partner-events';
import { transactionEvent } from '../events/transaction-event';
import { LedgerService } from '../ledger/ledger.service';
import { MoneyCommands } from '../ledger/money-commands';
import { TenantsRepository } from '../tenants/tenants.repository';
import { WalletsRepository } from '../wallets/wallets.repository';

/** Moves money between two wallets of one business: one journal entry, one event. */
@Injectable()
export class InternalTransferUseCase {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenants: TenantsRepository,
    private readonly wallets: WalletsRepository,
    private readonly ledger: LedgerService,
    private readonly commands: MoneyCommands,
    private readonly events: PartnerEventsOutbox,
  ) {}

  async execute(businessId: string, request: InternalTransferRequest): Promise<InternalTransferResponse> {
    if (request.sourceWalletId === request.destinationWalletId) {
      throw apiError('INVALID_TRANSFER', 'sourceWalletId and destinationWalletId must be different wallets');
    }
    return this.dataSource.transaction(async (em) => {
      await this.tenants.require(em, businessId);
      const key = { namespace: 'transfer', reference: request.reference } as const;
      const claim = await this.commands.claim<InternalTransferResponse>(em, businessId, key, 'internal_transfer', request);
      if (!claim.first) return claim.result;

      const locked = await this.wallets.lock(em, businessId, [request.sourceWalletId, request.destinationWalletId]);
      const source = locked.get(request.sourceWalletId)!;
      const destination = locked.get(request.destinationWalletId)!;
      if (source.type === 'rail' || destination.type === 'rail') throw apiError('WALLET_NOT_FOUND', 'Wallet not found');
      const amount = BigInt(request.amount);
      const entry = await this.ledger.post(em, {
        businessId,
        kind: 'internal_transfer',
        reference: request.reference,
        narration: request.narration,
        postings: [
          { wallet: source, amount: -amount },
          { wallet: destination, amount },
        ],
      });
      const response: InternalTransferResponse = {
        reference: request.reference,
        transactionStatus: 'SUCCESS',
        amount: request.amount,
        sourceWalletId: source.id,
        destinationWalletId: destination.id,
        narration: request.narration ?? null,
        createdAt: entry.createdAt.toISOString(),
      };
      const eventData = transactionEvent({
        productType: 'internal_transfer',
        amount: request.amount,
        transactionStatus: 'SUCCESS',
        transactionReference: request.reference,
        comment: request.narration ?? null,
        createdAt: response.createdAt,
        transactionAccount: destination.accountNumber?.trim() ?? destination.id,
        transactionType: 'CREDIT',
        details: { sourceWalletId: source.id, destinationWalletId: destination.id, journalEntryId: entry.id },
      });
      await this.events.add(em, businessId, PartnerEvents.internalTransferSuccessful, eventData);
      return this.commands.complete(em, businessId, key, response);
    });
  }
}
