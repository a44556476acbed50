import { Inject, Injectable, Logger } from '@nestjs/common';
import { BusinessMode } from '@payments/contracts';
import { newUlid, Sealer } from '@payments/platform-crypto';
import { Metrics } from '@payments/platform-metrics';
import { Counter } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';

import { CARD_SEALER } from '../tokens';
import { CardAcceptorsRepository, TerminalKey } from './card-acceptors.repository';
import { AccountType, AuthorisationAnswer, AuthorisationRequest, EntryMode, UnmatchedAnswer } from './card-network';
import { CardNetworks } from './card-networks';
import { processingCode } from './iso8583/messages';
import {
  NetworkRequestRow,
  NetworkRequestsRepository,
  NewNetworkRequest,
  RequestOutcome,
  RequestPurpose,
} from './network-requests.repository';
import { failureReason } from './response-codes';

/** A card payment, from any flow, as the network step needs it. */
export interface PaymentForNetwork {
  purpose: RequestPurpose;
  paymentReference: string;
  businessId: string;
  mode: BusinessMode;
  kind: 'purchase' | 'refund';
  amount: string;
  card: {
    pan: string;
    /** YYMM; a refund goes without one. */
    expiry?: string;
    accountType: AccountType;
    entryMode: EntryMode;
    sequenceNumber?: string;
    track2?: string;
    iccData?: string;
    /** Under the network's zone PIN key already. */
    pinBlock?: string;
  };
  /** The terminal it is made at; a refund names the acceptor ids of the payment it pays back. */
  terminal: TerminalKey | { kind: 'known'; merchantId: string; terminalId: string };
  /** DE43; the business's id when its name is not known here. */
  acceptorName: string;
  originalRrn?: string;
}

/** How the network step ended a payment, for its flow to record. */
export type PaymentDecision = { approved: true } | { approved: false; reason: string };

/**
 * A flow's part in a decision: ends its payment in the transaction that decides the request.
 * False when the payment had ended already and cannot take it: an approval is then reversed.
 */
export interface PaymentSettler {
  settle(em: EntityManager, request: NetworkRequestRow, decision: PaymentDecision): Promise<boolean>;
}

/** The row of a request written as sent, as its sender needs it. */
export type SentRequest = Pick<NetworkRequestRow, 'id' | 'network' | 'acquirer_id' | 'stan' | 'rrn' | 'transmitted_at'>;

/** A request written as sent and what will go out: `send` it once the transaction has committed. */
export interface PreparedRequest {
  row: SentRequest;
  request: AuthorisationRequest;
  /** performance.now() before the row was written. */
  preparedAt: number;
}

/** A request ready to be written, for a flow that writes it in its own statement (insertSentStatement). */
export interface DraftRequest {
  values: NewNetworkRequest;
  /** The request prepared, once its row is written with the STAN, RRN and time the database drew. */
  written(drawn: Pick<NetworkRequestRow, 'stan' | 'rrn' | 'transmitted_at'>): PreparedRequest;
}

/**
 * A request is sent within this long of being written, or not at all. The sweep gives a request
 * up as stranded only after the network's timeout and 5 s more (reversals.worker.ts), so one
 * that goes out has never been given up before it left.
 */
export const sendWithinMs = 2_000;

const merchantCategoryCode = '5999';

/**
 * The network step every card payment goes through, whatever its flow: the request is written
 * as sent (in the flow's transaction, so a crash leaves a row to reverse), sent, and its answer
 * decides it once, in one transaction with the flow's own record of the payment. An outcome
 * that is not known is reversed (reversals.worker.ts), and the payment fails: never credited
 * without an approval, never both credited and reversed.
 */
@Injectable()
export class CardAuthoriser {
  private readonly logger = new Logger(CardAuthoriser.name);
  private readonly settlers = new Map<RequestPurpose, PaymentSettler>();
  private reversalsDue = () => {};
  private readonly heldUp: Counter<'network'>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly networks: CardNetworks,
    private readonly requests: NetworkRequestsRepository,
    private readonly acceptors: CardAcceptorsRepository,
    @Inject(CARD_SEALER) private readonly sealer: Sealer,
    metrics: Metrics,
  ) {
    this.heldUp = new Counter({
      name: 'card_network_requests_held_up_total',
      help: 'Requests not sent because their sender was held up past the bound after writing them',
      labelNames: ['network'],
      registers: [metrics.registry],
    });
    networks.onUnmatchedAnswer((answer) => void this.answerUnmatched(answer));
  }

  register(purpose: RequestPurpose, settler: PaymentSettler): void {
    this.settlers.set(purpose, settler);
  }

  /** Told when a reversal became due, so that the 0420 goes at once rather than at the next poll. */
  onReversalDue(listener: () => void): void {
    this.reversalsDue = listener;
  }

  /** Writes the payment's request as sent, in the flow's transaction `em`. */
  async prepare(em: EntityManager, payment: PaymentForNetwork): Promise<PreparedRequest> {
    const draft = await this.draft(em, payment);
    return draft.written(await this.requests.insertSent(em, draft.values));
  }

  /** The payment's request, not yet written; `em` draws its acceptor's ids on first use. */
  async draft(em: EntityManager, payment: PaymentForNetwork): Promise<DraftRequest> {
    const preparedAt = performance.now();
    const network = this.networks.for(payment.mode);
    const { terminal, card } = payment;
    const ids =
      terminal.kind === 'known'
        ? { merchant_id: terminal.merchantId, terminal_id: terminal.terminalId }
        : await this.acceptors.acceptorIds(em, payment.businessId, terminal);
    const values: NewNetworkRequest = {
      id: newUlid(),
      network: network.name,
      acquirer_id: network.acquirerId,
      purpose: payment.purpose,
      payment_reference: payment.paymentReference,
      business_id: payment.businessId,
      processing_code: processingCode(payment.kind, card.accountType),
      amount: payment.amount,
      merchant_id: ids.merchant_id,
      terminal_id: ids.terminal_id,
      sealPan: (id) => this.sealer.seal(card.pan, id),
    };
    const written = ({ stan, rrn, transmitted_at }: Pick<NetworkRequestRow, 'stan' | 'rrn' | 'transmitted_at'>) => ({
      row: { id: values.id, network: values.network, acquirer_id: values.acquirer_id, stan, rrn, transmitted_at },
      preparedAt,
      request: {
        trace: { acquirerId: values.acquirer_id, stan, rrn, transmittedAt: transmitted_at },
        kind: payment.kind,
        amount: payment.amount,
        pan: card.pan,
        expiry: card.expiry,
        accountType: card.accountType,
        entryMode: card.entryMode,
        acceptor: {
          merchantId: ids.merchant_id,
          terminalId: ids.terminal_id,
          nameAndLocation: acceptorNameAndLocation(payment.acceptorName),
          categoryCode: merchantCategoryCode,
        },
        cardSequenceNumber: card.sequenceNumber,
        track2: card.track2,
        iccData: card.iccData,
        pinBlock: card.pinBlock,
        originalRrn: payment.originalRrn,
      },
    });
    return { values, written };
  }

  /**
   * Sends a prepared request and decides it with its answer: how this call decided the payment,
   * or undefined when something else had decided it. One whose sender was held up past
   * `sendWithinMs` (a stalled process, a slow commit) never goes out: the sweep may have given
   * it up meanwhile.
   */
  async send({ row, request, preparedAt }: PreparedRequest): Promise<PaymentDecision | undefined> {
    if (performance.now() - preparedAt > sendWithinMs) {
      this.logger.warn(
        { requestId: row.id, network: row.network, heldUpMs: Math.round(performance.now() - preparedAt) },
        'request not sent: its sender was held up past the bound, and the payment fails',
      );
      this.heldUp.inc({ network: row.network });
      return this.decide(row.id, { outcome: 'not-sent', why: `its sender was held up past ${sendWithinMs} ms` });
    }
    const answer = await this.networks.byName(row.network).authorise(request);
    const decision = await this.decide(row.id, answer);
    if (decision === undefined && answer.outcome === 'approved') await this.approvedLate(row.id, row.network);
    return decision;
  }

  /**
   * Decides a sent request and settles its payment, unless it was decided already: how this
   * call decided the payment, if it did. A request that never left is declined without a
   * reversal: the host never heard of it. `strandedForMs`: only if it was written that long ago.
   */
  async decide(
    requestId: string,
    answer: AuthorisationAnswer,
    strandedForMs?: number,
  ): Promise<PaymentDecision | undefined> {
    const outcome = outcomeOf(answer);
    const decision: PaymentDecision =
      answer.outcome === 'approved' ? { approved: true } : { approved: false, reason: failureReason(answer) };
    const settled = await this.dataSource.transaction(async (em) => {
      const recorded = await this.requests.decide(em, requestId, outcome, strandedForMs);
      if (!recorded) return undefined;
      if (await this.settlerOf(recorded.purpose).settle(em, recorded, decision)) {
        if (outcome.state === 'approved' && !recorded.processing_code.startsWith('00')) {
          await this.requests.letGoOfPan(em, requestId);
        }
        return { decision, reversing: outcome.state === 'unknown' };
      }
      // The payment ended meanwhile: an approval must not stand, and nothing else needs undoing.
      if (outcome.state === 'approved') await this.requests.reverseInstead(em, requestId);
      return { decision: undefined, reversing: outcome.state !== 'declined' };
    });
    if (settled?.reversing) this.reversalsDue();
    return settled?.decision;
  }

  /**
   * The requests whose sender is gone (a crash, a deploy) while they were in flight: each is
   * given up as unknown, so it is reversed and its payment fails. True when there were some.
   */
  async giveUpStranded(afterMs: number): Promise<boolean> {
    const stranded = await this.requests.stranded(afterMs, 50);
    for (const row of stranded) {
      this.logger.warn({ requestId: row.id, network: row.network }, 'request left in flight by its sender: reversing');
      await this.decide(row.id, { outcome: 'unknown', responseCode: null, why: 'its sender stopped waiting' }, afterMs);
    }
    return stranded.length > 0;
  }

  /**
   * An answer nobody here waits for. When its request is still in flight (its waiter is gone:
   * another instance sent it, or this one restarted), the answer decides it. Otherwise it is
   * late or a repeat: an approval of a request given up as unknown is already being reversed,
   * and one that comes after the host said it had nothing to reverse is reversed again.
   */
  async answerUnmatched({ network, acquirerId, stan, rrn, answer }: UnmatchedAnswer): Promise<void> {
    try {
      const row = await this.requests.find(network, acquirerId, rrn, stan);
      if (row?.state === 'sent') {
        const decision = await this.decide(row.id, answer);
        if (decision !== undefined || answer.outcome !== 'approved') return;
      }
      if (row && answer.outcome === 'approved' && (await this.approvedLate(row.id, network))) return;
      this.logger.warn(
        { network, requestState: row?.state ?? 'none', outcome: answer.outcome },
        'an answer came for a request already decided: ignored',
      );
    } catch (error) {
      this.logger.error({ err: error, network }, 'an unmatched answer could not be looked up');
    }
  }

  /**
   * An approval of a request given up: it must be reversed, whatever the host answered a
   * reversal sent before it. True when it is being reversed.
   */
  private async approvedLate(requestId: string, network: string): Promise<boolean> {
    const was = await this.requests.approvedLate(requestId);
    if (!was) return false;
    this.logger.warn(
      { requestId, network },
      was === 'reversed'
        ? 'an approval came after its reversal found nothing: reversing again'
        : 'an approval came for a request being reversed: reversing until the host reverses it',
    );
    if (was === 'reversed') this.reversalsDue();
    return true;
  }

  private settlerOf(purpose: RequestPurpose): PaymentSettler {
    const settler = this.settlers.get(purpose);
    if (!settler) throw new Error(`no flow settles ${purpose} payments`);
    return settler;
  }
}

function outcomeOf(answer: AuthorisationAnswer): RequestOutcome {
  switch (answer.outcome) {
    case 'approved':
    case 'declined': {
      const { responseCode, settlementDate } = answer;
      const authorisationCode = answer.outcome === 'approved' ? answer.authorisationCode : null;
      return { state: answer.outcome, responseCode, authorisationCode, settlementDate };
    }
    case 'unknown':
      return { state: 'unknown', responseCode: answer.responseCode, authorisationCode: null, settlementDate: null };
    case 'not-sent':
      return { state: 'declined', responseCode: null, authorisationCode: null, settlementDate: null };
  }
}

/** DE43: the name (23 characters), the city (13), the state (2) and the country (2). */
export function acceptorNameAndLocation(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, ' ');
  return `${printable.slice(0, 23).padEnd(23)}${'LAGOS'.padEnd(13)}LANG`;
}
