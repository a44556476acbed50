import { Injectable } from '@nestjs/common';
import { PartnerEvents, PosTransactionDecidedV1Payload } from '@payments/contracts';
import { ProcessedEvents } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { PartnerEventsOutbox } from '../events/partner-events';
import { transactionEvent } from '../events/transaction-event';
import { MoneyCommandsRepository } from '../ledger/money-commands.repository';
import { RailCredits } from '../ledger/rail-credits';
import { Wallet, WalletsRepository } from '../wallets/wallets.repository';

const consumer = 'outlet-service.pos';

/**
 * An approved POS transaction credits the collection wallet of the terminal's outlet (the
 * settlement wallet when the terminal has none) and sends fundAccount.success; a declined one
 * sends fundAccount.failed. Each decision is applied once, however often it is delivered.
 */
@Injectable()
export class PosCreditUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly processed: ProcessedEvents,
    private readonly businesses: BusinessesRepository,
    private readonly wallets: WalletsRepository,
    private readonly railCredits: RailCredits,
    private readonly commands: MoneyCommandsRepository,
    private readonly events: PartnerEventsOutbox,
  ) {}

  async apply(eventId: string, decision: PosTransactionDecidedV1Payload): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      if (!(await this.processed.firstDelivery(em, consumer, eventId))) return;
      await this.businesses.require(em, decision.businessId);
      const wallet = await this.destination(em, decision);
      const common = {
        productType: 'pos',
        sessionId: decision.reference,
        amount: decision.amount,
        transactionReference: decision.reference,
        transactionAccount: wallet.accountNumber?.trim() ?? wallet.id,
        transactionType: 'CREDIT' as const,
        details: {
          serialNumber: decision.serialNumber,
          maskedPan: decision.maskedPan,
          outletId: decision.outletId,
          walletId: wallet.id,
        },
      };
      if (!decision.approved) {
        await this.events.add(
          em,
          decision.businessId,
          PartnerEvents.fundAccountFailed,
          transactionEvent({
            ...common,
            transactionStatus: 'FAILED',
            comment: decision.declineReason,
            createdAt: decision.decidedAt,
          }),
        );
        return;
      }
      const key = { namespace: 'pos', reference: decision.reference } as const;
      const claim = await this.commands.claim(em, decision.businessId, key, 'pos', {
        amount: decision.amount,
        walletId: wallet.id,
      });
      if (!claim.first) return;
      const { entry, charge } = await this.railCredits.credit(em, {
        businessId: decision.businessId,
        product: 'pos',
        walletId: wallet.id,
        amount: BigInt(decision.amount),
        kind: 'pos',
        reference: decision.reference,
        narration: `POS ${decision.serialNumber} ${decision.maskedPan}`,
      });
      await this.events.add(
        em,
        decision.businessId,
        PartnerEvents.fundAccountSuccess,
        transactionEvent({ ...common, charge, transactionStatus: 'SUCCESS', createdAt: entry.createdAt.toISOString() }),
      );
      await this.commands.complete(em, decision.businessId, key, { journalEntryId: entry.id });
    });
  }

  private async destination(em: EntityManager, decision: PosTransactionDecidedV1Payload): Promise<Wallet> {
    if (decision.outletId) {
      const [collection] = (await this.wallets.ofOutlets(em, decision.businessId, [decision.outletId])).filter(
        (wallet) => wallet.type === 'collection',
      );
      if (collection) return collection;
    }
    return this.wallets.systemWallet(em, decision.businessId, 'settlement');
  }
}
