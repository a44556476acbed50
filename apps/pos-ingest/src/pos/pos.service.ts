import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
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
import { BatchingPublisher, KAFKA_CLIENT } from '@payments/platform-kafka';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import { createHmac, randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import { DataSource } from 'typeorm';
import { Env } from '../config/env';
import { Terminal, Terminals } from '../terminals/terminals';
import { maskPan, payloadProblems } from './payload-rules';

export const CARD_SEALER = Symbol('CARD_SEALER');

/**
 * Accepts a terminal's submission: decrypt, validate, deduplicate, publish, answer. The answer
 * comes only after Kafka acknowledged the message (acks=all, idempotent producer); the
 * dedupe row commits only then too, so a failure leaves nothing half-accepted.
 */
@Injectable()
export class PosService implements OnApplicationShutdown {
  private producer?: Promise<Producer>;
  private readonly publisher: BatchingPublisher;
  private inFlight = 0;
  private readonly dedupeKeyHmac: Buffer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(KAFKA_CLIENT) private readonly kafka: Kafka,
    @Inject(CARD_SEALER) private readonly cardSealer: Sealer,
    private readonly terminals: Terminals,
    private readonly env: Env,
  ) {
    this.dedupeKeyHmac = Buffer.from(env.CARD_DATA_KEY, 'base64');
    // A failed send may leave an idempotent producer's sequence state stale: start afresh.
    this.publisher = new BatchingPublisher(() => this.connectedProducer(), Topics.posTransactions.name, () => (this.producer = undefined));
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

  private accept(terminal: Terminal, payload: PosPayload) {
    // A keyed hash: the PAN takes part without being stored, even hashed, in a guessable way.
    const dedupeKey = createHmac('sha256', this.dedupeKeyHmac)
      .update([terminal.serialNumber, payload.sequenceNumber, payload.amount, payload.pan].join('\n'))
      .digest('hex');
    return this.dataSource.transaction(async (em) => {
      const reference = ulid();
      // A submission older than 24 hours is a new transaction with the same key; a recent one,
      // or a concurrent twin, leaves the row as it is and we answer with its reference.
      const claimed = (await em.query(
        `INSERT INTO pos_ingest.submissions (dedupe_key, reference, serial_number) VALUES ($1, $2, $3)
         ON CONFLICT (dedupe_key) DO UPDATE SET reference = EXCLUDED.reference, created_at = now()
           WHERE pos_ingest.submissions.created_at <= now() - interval '24 hours'
         RETURNING reference`,
        [dedupeKey, reference, terminal.serialNumber],
      )) as { reference: string }[];
      if (claimed.length === 0) {
        const [twin] = (await em.query(`SELECT reference FROM pos_ingest.submissions WHERE dedupe_key = $1`, [dedupeKey])) as { reference: string }[];
        return { reference: twin.reference, transactionStatus: 'PROCESSING' as const };
      }
      await this.publish(terminal, payload, reference);
      return { reference, transactionStatus: 'PROCESSING' as const };
    });
  }

  private async publish(terminal: Terminal, payload: PosPayload, reference: string) {
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
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('broker did not acknowledge in time')), this.env.POS_PUBLISH_TIMEOUT_MS);
    });
    try {
      await Promise.race([
        this.publisher.publish({
          key: terminal.serialNumber,
          value: JSON.stringify(envelope),
          headers: { 'event-id': envelope.eventId, 'event-type': envelope.type },
        }),
        timeout,
      ]);
    } catch {
      throw unavailable();
    } finally {
      clearTimeout(timer);
    }
  }

  private connectedProducer(): Promise<Producer> {
    this.producer ??= (async () => {
      const producer = this.kafka.producer({ idempotent: true, createPartitioner: Partitioners.DefaultPartitioner, retry: { retries: 2 } });
      await producer.connect();
      return producer;
    })().catch((error: unknown) => {
      this.producer = undefined;
      throw error;
    });
    return this.producer;
  }

  async onApplicationShutdown(): Promise<void> {
    await (await this.producer?.catch(() => undefined))?.disconnect();
  }
}

function unavailable(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'The transaction was not accepted; retry it', 503);
}
