import { randomBytes } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BusinessMode, PosPayload } from '@payments/contracts';
import { encryptPosPayload, PosKeySealer } from '@payments/platform-crypto';
import { approvedPosCard, samplePosPayload, startTestApp } from '@payments/testing';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';

import { posIngestApp } from '../app';

export const approvedCard = approvedPosCard;

/** pos-ingest in-process on the real database and broker, with terminals registered directly. */
export class PosIngestFixture {
  app!: NestFastifyApplication;

  constructor(
    readonly dataKey = randomBytes(32).toString('base64'),
    readonly cardKey = randomBytes(32).toString('base64'),
    readonly referenceKey = randomBytes(32).toString('base64'),
  ) {}

  async start(overrides: Record<string, string> = {}): Promise<this> {
    ({ app: this.app } = await startTestApp(
      { ...posIngestApp, kafkaConsumer: false },
      {
        POS_KEY_SEALING_KEY: this.dataKey,
        CARD_DATA_KEY: this.cardKey,
        POS_REFERENCE_KEY: this.referenceKey,
        // The suites' terminals submit far faster than a till: counted as in production (grants
        // of 100 submissions), never reached unless a test sets a quota of its own.
        RATE_LIMIT_TERMINAL: '1000000/60s',
        // Their failures all come from one address, and suites send many on purpose.
        RATE_LIMIT_POS_FAILURES: '1000000/60s',
        ...overrides,
      },
    ));
    return this;
  }

  /** Another instance of the same deployment: the same keys and database, nothing in memory shared. */
  sibling(): PosIngestFixture {
    return new PosIngestFixture(this.dataKey, this.cardKey, this.referenceKey);
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  /** A business with a POS key and one terminal; returns the serial number and the key. */
  async terminal(
    posKey = 'AbCdEfGh12345678',
    mode: BusinessMode = 'test',
  ): Promise<{ serialNumber: string; posKey: string; businessId: string }> {
    const businessId = ulid();
    await this.dataSource.query(
      `INSERT INTO pos_ingest.integrators (business_id, mode, pos_key_sealed) VALUES ($1, $2, $3)`,
      [businessId, mode, new PosKeySealer(this.dataKey).seal(posKey, businessId)],
    );
    return { serialNumber: await this.anotherTerminal(businessId), posKey, businessId };
  }

  /** One more terminal of the business; returns its serial number. */
  async anotherTerminal(businessId: string): Promise<string> {
    const serialNumber = `SN-${ulid()}`;
    await this.dataSource.query(`INSERT INTO pos_ingest.terminals (serial_number, business_id) VALUES ($1, $2)`, [
      serialNumber,
      businessId,
    ]);
    return serialNumber;
  }

  /** The value of one series on /metrics (`name{labels}` exactly as exported), 0 when absent. */
  async metric(series: string): Promise<number> {
    const text = (await this.app.inject({ method: 'GET', url: '/metrics' })).body;
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  }

  /** A terminal's submission, from `remoteAddress` (inject's default is 127.0.0.1). */
  submit(serialNumber: string, data: string, remoteAddress?: string) {
    return this.app.inject({ method: 'POST', url: '/pos', payload: { serialNumber, data }, remoteAddress });
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

/** A transaction of the approved sandbox card; the same chip data every time unless overridden. */
export function payload(overrides: Partial<PosPayload> = {}): PosPayload {
  return samplePosPayload({ iccData: '9F2608C0FFEE', sequenceNumber: ulid(), ...overrides });
}

export const encrypt = encryptPosPayload;
