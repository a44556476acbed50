import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  EventEnvelope,
  PosPayload,
  PosSubmissionRequest,
  PosSubmissionResponse,
  PosTransactionAcceptedV1,
  PosTransactionAcceptedV1Payload,
  Topics,
} from '@payments/contracts';
import { decryptPosPayload, Sealer } from '@payments/platform-crypto';
import { apiError, DomainError, ValidationFailedError } from '@payments/platform-envelope';
import { KafkaProducer } from '@payments/platform-kafka';
import { Message } from 'kafkajs';
import { createHmac, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Env } from '../config/env';
import { Terminal, Terminals } from '../terminals/terminals';
import { maskPan, payloadProblems } from './payload-rules';
import { SubmissionBatcher } from './submission-batcher';

export const CARD_SEALER = Symbol('CARD_SEALER');

/**
 * Accepts a terminal's submission: decrypt, validate, deduplicate, publish, answer. The answer
 * comes only after Kafka acknowledged the message (acks=all). Submissions
 * arriving together are deduplicated and published as one group (SubmissionBatcher); when the
 * broker fails, nothing is processed and a retry is the same transaction.
 */
@Injectable()
export class PosService {
  private readonly submissions: SubmissionBatcher;
  private inFlight = 0;
  private readonly dedupeKeyHmac: Buffer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly producer: KafkaProducer,
    @Inject(CARD_SEALER) private readonly cardSealer: Sealer,
    private readonly terminals: Terminals,
    private readonly env: Env,
  ) {
    this.dedupeKeyHmac = Buffer.from(env.CARD_DATA_KEY, 'base64');
    this.submissions = new SubmissionBatcher(dataSource, (messages) => this.publishAcknowledged(messages));
  }

  async submit(request: PosSubmissionRequest): Promise<PosSubmissionResponse> {
    const terminal = await this.terminals.find(request.serialNumber);
    if (!terminal) throw apiError('TERMINAL_NOT_FOUND', `Terminal ${request.serialNumber} is not registered`);
    const decrypted = decryptPosPayload(request.data, terminal.posKey);
    if (!decrypted) throw apiError('INVALID_PAYLOAD', 'data could not be decrypted into a POS payload with this terminal\'s key');
    const problems = payloadProblems(decrypted);
    if (problems.length > 0) throw new ValidationFailedError(problems);
    const payload = decrypted as PosPayload;

    if (this.inFlight >= this.env.POS_MAX_IN_FLIGHT) throw unavailable();
    this.inFlight += 1;
    try {
      return await this.accept(terminal, payload);
    } finally {
      this.inFlight -= 1;
    }
  }

  private async accept(terminal: Terminal, payload: PosPayload): Promise<PosSubmissionResponse> {
    // A keyed hash: the PAN takes part without being stored, even hashed, in a guessable way.
    const dedupeKey = createHmac('sha256', this.dedupeKeyHmac)
      .update([terminal.serialNumber, payload.sequenceNumber, payload.amount, payload.pan].join('\n'))
      .digest('hex');
    try {
      const reference = await this.submissions.accept({
        dedupeKey,
        serialNumber: terminal.serialNumber,
        message: (accepted) => this.message(terminal, payload, accepted),
      });
      return { reference, transactionStatus: 'PROCESSING' };
    } catch {
      throw unavailable();
    }
  }

  private message(terminal: Terminal, payload: PosPayload, reference: string): Message {
    const card = { pan: payload.pan, pinBlock: payload.pinBlock, track2Data: payload.track2Data, iccData: payload.iccData, cardExpiryDate: payload.cardExpiryDate };
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
        sealedCard: this.cardSealer.seal(JSON.stringify(card), reference),
      },
    };
    return { key: terminal.serialNumber, value: JSON.stringify(envelope), headers: { 'event-id': envelope.eventId, 'event-type': envelope.type } };
  }

  /** Resolves once the broker acknowledged every message (acks=all), or rejects in time. */
  private async publishAcknowledged(messages: Message[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('broker did not acknowledge in time')), this.env.POS_PUBLISH_TIMEOUT_MS);
    });
    try {
      await Promise.race([Promise.all(messages.map((message) => this.producer.send(Topics.posTransactions.name, message))), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function unavailable(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'The transaction was not accepted; retry it', 503);
}
