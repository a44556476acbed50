import { Injectable } from '@nestjs/common';
import { PartnerEvents, PosTransactionDecidedV1Payload } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { ProcessedEvents } from '@payments/platform-outbox';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { PartnerEventsOutbox } from '../events/partner-events';
import { MoneyMovesRepository } from '../money/money-moves.repository';
import { RailCredits } from '../money/rail-credits';
import { transactionEvent } from '../money/transaction-event';
import { Wallet, WalletsRepository } from '../money/wallets.repository';

const consumer = 'outlet-service.pos';

/** The wallet a terminal's transactions are credited to, as far as its events say: none of this ever changes. */
type Destination = Pick<Wallet, 'id' | 'type' | 'accountNumber'>;

/**
 * An approved POS transaction credits the collection wallet of the terminal's outlet (the
 * settlement wallet when the terminal has none) and sends fundAccount.success; a declined one
 * sends fundAccount.failed. Each decision is applied once, however often it is delivered.
 */
@Injectable()
export class PosCreditUseCase {
  /** Destinations by business and outlet: each credit would otherwise read its wallet again. */
  private readonly destinations = new LRUCache<string, Destination>({ max: 100_000 });

  constructor(
    private readonly dataSource: DataSource,
    private readonly processed: ProcessedEvents,
    private readonly businesses: BusinessesRepository,
    private readonly wallets: WalletsRepository,
    private readonly railCredits: RailCredits,
    private readonly moves: MoneyMovesRepository,
    private readonly events: PartnerEventsOutbox,
  ) {}

  async apply(eventId: string, decision: PosTransactionDecidedV1Payload): Promise<void> {
    if (decision.approved) await this.credit(decision);
    else await this.reportDecline(eventId, decision);
  }

  /**
   * The credit, its fee and its event in one move_money call, keyed by the POS reference: a
   * redelivery finds the key taken and books nothing.
   */
  private async credit(decision: PosTransactionDecidedV1Payload): Promise<void> {
    const { businessId } = decision;
    const em = this.dataSource.manager;
    const wallet = await this.destination(em, decision);
    const { move } = await this.railCredits.priced(em, businessId, 'pos', BigInt(decision.amount));
    const entryId = newUlid();
    const at = new Date();
    await this.moves.move({
      ...move,
      businessId,
      key: { namespace: 'pos', reference: decision.reference },
      kind: 'pos',
      request: { amount: decision.amount, walletId: wallet.id },
      destination: wallet.id,
      walletTypes: ['rail', wallet.type],
      entryId,
      entryReference: decision.reference,
      narration: `POS ${decision.serialNumber} ${decision.maskedPan}`,
      at,
      // The wallet it credited: a refund holds its amount there, even when the fee left it nothing.
      result: { journalEntryId: entryId, walletId: wallet.id },
      event: this.events.row(
        businessId,
        PartnerEvents.fundAccountSuccess,
        transactionEvent({
          ...eventFields(decision, wallet),
          charge: move.charge,
          transactionStatus: 'SUCCESS',
          createdAt: at.toISOString(),
        }),
      ),
    });
  }

  private async reportDecline(eventId: string, decision: PosTransactionDecidedV1Payload): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      if (!(await this.processed.firstDelivery(em, consumer, eventId))) return;
      await this.businesses.require(em, decision.businessId);
      const wallet = await this.destination(em, decision);
      await this.events.add(
        em,
        decision.businessId,
        PartnerEvents.fundAccountFailed,
        transactionEvent({
          ...eventFields(decision, wallet),
          transactionStatus: 'FAILED',
          comment: decision.declineReason,
          createdAt: decision.decidedAt,
        }),
      );
    });
  }

  private async destination(em: EntityManager, decision: PosTransactionDecidedV1Payload): Promise<Destination> {
    const key = `${decision.businessId}/${decision.outletId ?? ''}`;
    const known = this.destinations.get(key);
    if (known) return known;
    if (decision.outletId) {
      const [collection] = (await this.wallets.ofOutlets(em, decision.businessId, [decision.outletId])).filter(
        (wallet) => wallet.type === 'collection',
      );
      if (collection) return this.remember(key, collection);
    }
    // An outlet this service does not know gets the settlement wallet, but is asked about again.
    const settlementKey = `${decision.businessId}/`;
    return (
      this.destinations.get(settlementKey) ??
      this.remember(settlementKey, await this.wallets.systemWallet(em, decision.businessId, 'settlement'))
    );
  }

  private remember(key: string, wallet: Wallet): Destination {
    const destination = { id: wallet.id, type: wallet.type, accountNumber: wallet.accountNumber };
    this.destinations.set(key, destination);
    return destination;
  }
}

/** What fundAccount.success and fundAccount.failed of a POS transaction both say. */
function eventFields(decision: PosTransactionDecidedV1Payload, wallet: Destination) {
  return {
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
}
