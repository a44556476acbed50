import { Controller, Inject } from '@nestjs/common';
import {
  EventEnvelope,
  PosTransactionAcceptedV1,
  PosTransactionAcceptedV1Payload,
  PosTransactionDecidedV1,
  PosTransactionDecidedV1Payload,
  Topics,
} from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { EventHandler, PoisonMessageError } from '@payments/platform-kafka';
import { Outbox, outboxCommitted } from '@payments/platform-outbox';
import { DataSource } from 'typeorm';

import { CardForAuthorisation, SandboxIssuer } from '../issuer/sandbox-issuer';
import { CARD_SEALER } from '../tokens';
import { PosAuthorisationsRepository } from './pos-authorisations.repository';

/**
 * Authorises accepted POS transactions. The sealed card data is opened in memory only for the
 * issuer's decision; what is stored and passed on carries the masked PAN alone. The decision
 * and its event are written by one statement, once per reference.
 */
@Controller()
export class PosTransactionsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly authorisations: PosAuthorisationsRepository,
    @Inject(CARD_SEALER) private readonly cardSealer: Sealer,
    private readonly issuer: SandboxIssuer,
    private readonly outbox: Outbox,
  ) {}

  @EventHandler(Topics.posTransactions, 'bulk')
  async handle(event: EventEnvelope<PosTransactionAcceptedV1Payload>): Promise<void> {
    if (event?.type !== PosTransactionAcceptedV1) return;
    const transaction = event.payload;
    const card = this.openCard(transaction);
    const decision = this.issuer.authorise(card, transaction.mode);
    const declineReason = decision.approved ? null : decision.reason;
    const outcome = this.outbox.row<PosTransactionDecidedV1Payload>({
      topic: Topics.posOutcomes,
      type: PosTransactionDecidedV1,
      key: transaction.serialNumber,
      businessId: transaction.businessId,
      payload: {
        reference: transaction.reference,
        businessId: transaction.businessId,
        serialNumber: transaction.serialNumber,
        outletId: transaction.outletId,
        amount: transaction.amount,
        maskedPan: transaction.maskedPan,
        approved: decision.approved,
        declineReason,
        decidedAt: new Date().toISOString(),
      },
    });
    // A redelivered message was decided already, and queues nothing.
    if (await this.authorisations.decideOnce(transaction, { approved: decision.approved, declineReason }, outcome)) {
      outboxCommitted(this.dataSource);
    }
  }

  private openCard(transaction: PosTransactionAcceptedV1Payload): CardForAuthorisation {
    try {
      return JSON.parse(this.cardSealer.open(transaction.sealedCard, transaction.reference)) as CardForAuthorisation;
    } catch (error) {
      throw new PoisonMessageError(`card data of ${transaction.reference} cannot be opened with this CARD_DATA_KEY`, {
        cause: error,
      });
    }
  }
}
