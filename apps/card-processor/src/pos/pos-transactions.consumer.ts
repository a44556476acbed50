import { Controller, Inject, Logger } from '@nestjs/common';
import {
  EventEnvelope,
  PosSealedCard,
  PosTransactionAcceptedV1,
  PosTransactionAcceptedV1Payload,
  PosTransactionDecidedV1,
  PosTransactionDecidedV1Payload,
  Topics,
} from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { BatchProgress, EventBatchHandler, MessageContext, PoisonMessageError } from '@payments/platform-kafka';
import { Outbox } from '@payments/platform-outbox';
import { PinSecurityModule } from '@payments/platform-pin-security';
import { DataSource, EntityManager } from 'typeorm';

import { CardAuthoriser, PaymentDecision, PaymentForNetwork, PaymentSettler } from '../card-network/card-authoriser';
import { CardNetworks } from '../card-network/card-networks';
import { NetworkRequestRow } from '../card-network/network-requests.repository';
import { PIN_SECURITY } from '../card-network/pin-security.provider';
import { CARD_SEALER } from '../tokens';
import { PosAuthorisationRow, PosAuthorisationsRepository } from './pos-authorisations.repository';
import { pinForNetwork, posCardForNetwork, PosPin } from './pos-card';

/**
 * Authorises accepted POS transactions on the card network. The sealed card data is opened in
 * memory only to build the request; what is stored and passed on carries the masked PAN alone.
 * Each reference is authorised once: a redelivered message finds it begun, and a request whose
 * sender stopped is given up and reversed by the network step, which then decides it here.
 * A PIN block goes to the network only as the PIN security module translated it to the network's
 * zone PIN key; one that cannot be translated fails the transaction before anything is sent.
 */
@Controller()
export class PosTransactionsConsumer implements PaymentSettler {
  private readonly logger = new Logger(PosTransactionsConsumer.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly authorisations: PosAuthorisationsRepository,
    @Inject(CARD_SEALER) private readonly cardSealer: Sealer,
    private readonly authoriser: CardAuthoriser,
    private readonly networks: CardNetworks,
    private readonly outbox: Outbox,
    @Inject(PIN_SECURITY) private readonly pinSecurity: PinSecurityModule | null,
  ) {
    authoriser.register('pos', this);
  }

  /**
   * A partition's transactions, `authorisedAtOnce` at a time while nothing else is about (each
   * spends most of its time waiting for the host), one at a time while the process sends or
   * answers commands, giving way after each part as bulk streams do. Each is authorised once,
   * in whatever order they end. When one fails, the rest of its part still end before the batch
   * fails; the batch is then applied one message at a time, and those already begun are not
   * sent again.
   */
  @EventBatchHandler(Topics.posTransactions, 'bulk')
  async handleBatch(
    events: EventEnvelope<PosTransactionAcceptedV1Payload>[],
    _contexts?: MessageContext[],
    progress?: BatchProgress,
  ): Promise<void> {
    for (let start = 0; start < events.length;) {
      if (start > 0) await progress?.heartbeat();
      const size = progress?.commandsAbout() ? 1 : authorisedAtOnce;
      const part = events.slice(start, start + size);
      start += size;
      const began = performance.now();
      const failed = (await Promise.allSettled(part.map((event) => this.handle(event)))).find(
        (result) => result.status === 'rejected',
      );
      if (failed) throw failed.reason;
      await progress?.giveWay(performance.now() - began);
    }
  }

  async handle(event: EventEnvelope<PosTransactionAcceptedV1Payload>): Promise<void> {
    if (event?.type !== PosTransactionAcceptedV1) return;
    const transaction = event.payload;
    const card = this.openCard(transaction);
    const pin = await this.pinOf(transaction, card);
    const prepared = await this.dataSource.transaction(async (em) => {
      if (!(await this.authorisations.beginOnce(em, transaction))) return null;
      if (!this.networks.has(transaction.mode)) {
        await this.decide(em, transaction.reference, { approved: false, reason: noLiveNetwork });
        return null;
      }
      if ('unverifiable' in pin) {
        // Never the block or a key: only what was missing or wrong.
        this.logger.warn(
          { reference: transaction.reference, problem: pin.unverifiable },
          'the PIN block could not be translated: failed without a network request',
        );
        await this.decide(em, transaction.reference, { approved: false, reason: pinNotVerified });
        return null;
      }
      return this.authoriser.prepare(em, paymentOf(transaction, card, pin.pinBlock));
    });
    if (prepared) await this.authoriser.send(prepared);
  }

  /** The network decided the reference's request (CardAuthoriser calls this in its transaction). */
  async settle(em: EntityManager, request: NetworkRequestRow, decision: PaymentDecision): Promise<boolean> {
    return this.decide(em, request.payment_reference, decision);
  }

  private async decide(em: EntityManager, reference: string, decision: PaymentDecision): Promise<boolean> {
    const declineReason = decision.approved ? null : decision.reason;
    const decided = await this.authorisations.decide(em, reference, decision.approved, declineReason);
    if (!decided) return false;
    await this.outbox.enqueue(em, decidedEvent(decided));
    return true;
  }

  /** The PIN block under the zone PIN key of the network the business's cards go to, if a PIN was entered. */
  private pinOf(transaction: PosTransactionAcceptedV1Payload, card: PosSealedCard): Promise<PosPin> {
    const network = this.networks.has(transaction.mode) ? this.networks.for(transaction.mode) : undefined;
    return pinForNetwork(card, network?.zonePinKey, this.pinSecurity);
  }

  private openCard(transaction: PosTransactionAcceptedV1Payload): PosSealedCard {
    try {
      return this.cardSealer.openJson<PosSealedCard>(transaction.sealedCard, transaction.reference);
    } catch (error) {
      // The sealer's reason names a missing key by its id, never the key, and quotes no card data.
      const reason = (error as Error).message;
      throw new PoisonMessageError(
        `card data of ${transaction.reference} cannot be opened with CARD_DATA_KEY: ${reason}`,
        {
          cause: error,
        },
      );
    }
  }
}

/**
 * Enough to keep the host busy while the process waits; few enough that the ten seconds a part
 * may wait for the host stay well inside the group's session.
 */
const authorisedAtOnce = 16;

const noLiveNetwork = 'Card payments are not available to live businesses yet';
const pinNotVerified = 'The PIN could not be verified';

function paymentOf(
  transaction: PosTransactionAcceptedV1Payload,
  card: PosSealedCard,
  pinBlock: string | undefined,
): PaymentForNetwork {
  return {
    purpose: 'pos',
    paymentReference: transaction.reference,
    businessId: transaction.businessId,
    mode: transaction.mode,
    kind: 'purchase',
    amount: transaction.amount,
    card: posCardForNetwork(card, transaction, pinBlock),
    terminal: { kind: 'pos', serialNumber: transaction.serialNumber },
    acceptorName: transaction.businessId,
  };
}

function decidedEvent(row: PosAuthorisationRow) {
  return {
    topic: Topics.posOutcomes,
    type: PosTransactionDecidedV1,
    key: row.serial_number,
    businessId: row.business_id,
    payload: {
      reference: row.reference,
      businessId: row.business_id,
      serialNumber: row.serial_number,
      outletId: row.outlet_id,
      amount: row.amount,
      maskedPan: row.masked_pan,
      approved: row.approved === true,
      declineReason: row.decline_reason,
      decidedAt: new Date().toISOString(),
    } satisfies PosTransactionDecidedV1Payload,
  };
}
