import { Injectable } from '@nestjs/common';
import { InternalTransferRequest, InternalTransferResponse, PartnerEvents } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';

import { PartnerEventsOutbox } from '../events/partner-events';
import { MoneyMovesRepository } from '../money/money-moves.repository';
import { transactionEvent } from '../money/transaction-event';
import { WalletsRepository } from '../money/wallets.repository';

/**
 * Moves money between two wallets of one business: one journal entry, one event, once per
 * reference. The answer and the event are prepared here; the ledger applies them in one
 * database round trip, or refuses.
 */
@Injectable()
export class InternalTransferUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly wallets: WalletsRepository,
    private readonly moves: MoneyMovesRepository,
    private readonly events: PartnerEventsOutbox,
  ) {}

  async execute(businessId: string, request: InternalTransferRequest): Promise<InternalTransferResponse> {
    if (request.sourceWalletId === request.destinationWalletId) {
      throw apiError('INVALID_TRANSFER', 'sourceWalletId and destinationWalletId must be different wallets');
    }
    const [destination, source] = await Promise.all([
      this.wallets.accountOf(this.dataSource.manager, businessId, request.destinationWalletId),
      this.wallets.accountOf(this.dataSource.manager, businessId, request.sourceWalletId),
    ]);
    if (!destination) throw apiError('WALLET_NOT_FOUND', `Wallet ${request.destinationWalletId} not found`);
    // A source the business does not have is refused by the move itself, as it always was.
    const at = new Date();
    const entryId = newUlid();
    const response: InternalTransferResponse = {
      reference: request.reference,
      transactionStatus: 'SUCCESS',
      amount: request.amount,
      // Moving money between a business's own wallets is free.
      fee: '0',
      commission: '0',
      netAmount: request.amount,
      sourceWalletId: request.sourceWalletId,
      destinationWalletId: request.destinationWalletId,
      narration: request.narration ?? null,
      createdAt: at.toISOString(),
    };
    const eventData = transactionEvent({
      productType: 'internal_transfer',
      amount: request.amount,
      transactionStatus: 'SUCCESS',
      transactionReference: request.reference,
      comment: request.narration ?? null,
      createdAt: response.createdAt,
      transactionAccount: destination.accountNumber,
      transactionType: 'CREDIT',
      details: {
        sourceWalletId: request.sourceWalletId,
        destinationWalletId: request.destinationWalletId,
        journalEntryId: entryId,
        // Both sides: the transfer is listed under either outlet (docs/transactions.md).
        sourceOutletId: source?.outletId ?? null,
        destinationOutletId: destination.outletId,
      },
    });
    return this.moves.move({
      businessId,
      key: { namespace: 'transfer', reference: request.reference },
      kind: 'internal_transfer',
      request,
      source: request.sourceWalletId,
      destination: request.destinationWalletId,
      amount: BigInt(request.amount),
      walletTypes: ['collection', 'deposit', 'settlement'],
      entryId,
      entryReference: request.reference,
      narration: request.narration ?? null,
      at,
      result: response,
      event: this.events.row(businessId, PartnerEvents.internalTransferSuccessful, eventData),
    });
  }
}
