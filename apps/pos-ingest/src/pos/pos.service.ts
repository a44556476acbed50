import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import {
  EventEnvelope,
  PosPayload,
  PosSubmissionRequest,
  PosSubmissionResponse,
  PosTransactionAcceptedV1,
  PosTransactionAcceptedV1Payload,
  sealedCardOf,
  Topics,
} from '@payments/contracts';
import { withinTimeout } from '@payments/platform-async';
import { openPosPayload, Sealer } from '@payments/platform-crypto';
import { apiError, DomainError, requireSandboxRail, ValidationFailedError } from '@payments/platform-envelope';
import { KafkaProducer } from '@payments/platform-kafka';
import { HeaderSink, parsePolicy, RateLimitPolicy, RateLimits } from '@payments/platform-rate-limit';
import { Message } from 'kafkajs';

import { Env } from '../config/env';
import { Terminal, TerminalsService } from '../terminals/terminals.service';
import { CARD_SEALER } from '../tokens';
import { maskPan, payloadProblems } from './payload-rules';
import { PosMetrics, PosOutcome } from './pos-metrics';
import { TransactionReferences } from './transaction-reference';

/**
 * Accepts a terminal's submission: decrypt, validate, derive its reference, publish, answer.
 * The answer comes only after Kafka acknowledged the message (acks=all). No database is read
 * but to fill the terminal cache, and nothing is stored: the reference is derived from the
 * transaction itself (TransactionReferences), so a resubmission is the same transaction and
 * card-processor applies a reference once. Twins arriving together in one instance share one
 * publish; when the broker fails, nothing is accepted and the retry is the same transaction.
 */
@Injectable()
export class PosService {
  private readonly references: TransactionReferences;
  /** Publishes in flight, by reference: a twin arriving meanwhile waits for the same one. */
  private readonly publishing = new Map<string, Promise<void>>();
  private readonly terminalLimit?: RateLimitPolicy;
  /**
   * Submissions that prove nothing (a serial not registered, data that does not decrypt under
   * the terminal's key), counted per client address, never per serial: anyone can name a serial,
   * and a count anyone can spend must not shut the terminal out. Once an address spent it, only
   * its failures are refused: a terminal behind the same address (a carrier's NAT puts many
   * behind one) is still accepted. A refusal costs a cached lookup and one decryption attempt;
   * the limiter answers a spent window without asking its store.
   */
  private readonly failuresLimit?: RateLimitPolicy;

  constructor(
    private readonly producer: KafkaProducer,
    @Inject(CARD_SEALER) private readonly cardSealer: Sealer,
    private readonly terminals: TerminalsService,
    private readonly env: Env,
    private readonly metrics: PosMetrics,
    private readonly rateLimits: RateLimits,
  ) {
    this.terminalLimit = parsePolicy('terminal', env.RATE_LIMIT_TERMINAL);
    this.failuresLimit = parsePolicy('pos-failures', env.RATE_LIMIT_POS_FAILURES);
    this.references = new TransactionReferences(env.POS_REFERENCE_KEY);
    metrics.watchInFlight(() => this.publishing.size);
  }

  /**
   * `reply` takes the rate limit headers; `clientAddress` is the key of the address it came from
   * (clientAddressKey: an IPv6 address by its /64).
   * Only a submission that decrypts under the terminal's key is counted against the terminal's
   * quota: anyone can name a serial number, only the terminal holds its key. Everything else is
   * counted against the sender's address (`failuresLimit`), and an unregistered serial number
   * is answered exactly as data that does not decrypt, so registered serials cannot be told apart.
   */
  async submit(
    request: PosSubmissionRequest,
    reply: HeaderSink,
    clientAddress: string,
  ): Promise<PosSubmissionResponse> {
    const terminal = await this.terminals.find(request.serialNumber);
    if (!terminal) return this.failed(reply, clientAddress, 'terminal_not_found');
    const opened = openPosPayload(request.data, terminal.posKey);
    if ('failure' in opened) {
      this.metrics.undecryptable(opened.failure);
      return this.failed(reply, clientAddress, 'undecryptable');
    }
    try {
      await this.rateLimits.admit(reply, this.terminalLimit, terminal.serialNumber, terminal.businessId);
    } catch (error) {
      throw this.refused('rate_limited', error as Error);
    }
    // Without a live card network the terminal hears so now, not as a decline later.
    try {
      if (!this.env.LIVE_CARD_PAYMENTS) requireSandboxRail(terminal.mode, 'POS card payments');
    } catch (error) {
      throw this.refused('live_mode', error as Error);
    }
    const problems = payloadProblems(opened.payload);
    if (problems.length > 0) throw this.refused('invalid_payload', new ValidationFailedError(problems));
    const payload = opened.payload as PosPayload;
    const reference = this.references.of(terminal.businessId, payload);
    await this.publishOnce(reference, () => this.message(terminal, payload, reference));
    this.metrics.counted('accepted');
    return { reference, transactionStatus: 'PROCESSING' };
  }

  /** One answer for an unknown serial and for data that does not open: 400, or 429 once the address spent its quota. */
  private async failed(
    reply: HeaderSink,
    clientAddress: string,
    outcome: 'terminal_not_found' | 'undecryptable',
  ): Promise<never> {
    try {
      await this.rateLimits.admit(reply, this.failuresLimit, clientAddress);
    } catch (error) {
      throw this.refused('failures_limited', error as Error);
    }
    this.metrics.counted(outcome);
    throw apiError('INVALID_PAYLOAD', 'data could not be decrypted into a POS payload for this serial number');
  }

  private refused(outcome: PosOutcome, error: Error): Error {
    this.metrics.counted(outcome);
    return error;
  }

  private publishOnce(reference: string, message: () => Message): Promise<void> {
    const twin = this.publishing.get(reference);
    if (twin) return twin;
    if (this.publishing.size >= this.env.POS_MAX_IN_FLIGHT) throw this.refused('at_capacity', unavailable());
    const publish = this.publishAcknowledged(message()).finally(() => this.publishing.delete(reference));
    this.publishing.set(reference, publish);
    return publish;
  }

  private message(terminal: Terminal, payload: PosPayload, reference: string): Message {
    const envelope: EventEnvelope<PosTransactionAcceptedV1Payload> = {
      eventId: randomUUID(),
      type: PosTransactionAcceptedV1,
      occurredAt: new Date().toISOString(),
      businessId: terminal.businessId,
      payload: {
        reference,
        businessId: terminal.businessId,
        mode: terminal.mode,
        serialNumber: terminal.serialNumber,
        outletId: terminal.outletId,
        amount: payload.amount,
        sequenceNumber: payload.sequenceNumber,
        accountType: payload.accountType,
        cardHolderName: payload.cardHolderName,
        aid: payload.aid,
        institutionCode: payload.institutionCode,
        maskedPan: maskPan(payload.pan),
        // The terminal's PIN key travels only inside the sealed card, still wrapped under the PIN master key.
        sealedCard: this.cardSealer.seal(JSON.stringify(sealedCardOf(payload, terminal.pinKeyUnderLmk)), reference),
      },
    };
    return {
      key: terminal.serialNumber,
      value: JSON.stringify(envelope),
      headers: { 'event-id': envelope.eventId, 'event-type': envelope.type },
    };
  }

  /** Resolves once the broker acknowledged the message (acks=all); 503 when it does not in time. */
  private async publishAcknowledged(message: Message): Promise<void> {
    const acknowledged = this.metrics.publishTimer();
    try {
      await withinTimeout(this.producer.send(Topics.posTransactions.name, message), this.env.POS_PUBLISH_TIMEOUT_MS);
      acknowledged();
    } catch {
      throw this.refused('not_published', unavailable());
    }
  }
}

function unavailable(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'The transaction was not accepted; retry it', 503);
}
