import { randomBytes, randomUUID } from 'node:crypto';

import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BusinessMode, BusinessProvisionedV1, CommandReply, PartnerEventV1, WebhookCommand } from '@payments/contracts';
import { ApiKeySealer } from '@payments/platform-crypto';
import { commandReply } from '@payments/platform-envelope';
import { privateDatabaseUrl, startTestApp } from '@payments/testing';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';

import { webhookDispatcherApp } from '../app';
import { BusinessEventsConsumer } from '../businesses/business-events.consumer';
import { WebhookCommandsController } from '../commands/webhook-commands.controller';
import { database } from '../database/data-source';
import { PartnerEventsConsumer } from '../deliveries/partner-events.consumer';

const logger = new Logger('DispatcherFixture');

export interface TestBusiness {
  businessId: string;
  apiKey: string;
}

/**
 * webhook-dispatcher in-process on a real database of its own, fed events by calling its
 * consumers. Its own, because its worker claims every due delivery it can see: on a shared
 * database it would take another suite's deliveries, which it cannot sign (another data key)
 * and would send with its own retry and circuit settings.
 */
export class DispatcherFixture {
  private app!: NestFastifyApplication;
  private settings: Record<string, string> = {};
  private dropDatabase?: () => Promise<void>;

  constructor(
    readonly dataKey = randomBytes(32).toString('base64'),
    readonly secretKey = randomBytes(32).toString('base64'),
  ) {}

  async start(overrides: Record<string, string> = {}): Promise<this> {
    this.settings = { ...overrides };
    if (!this.settings.DATABASE_URL) {
      const created = await privateDatabaseUrl(database);
      this.settings.DATABASE_URL = created.url;
      this.dropDatabase = created.drop;
    }
    ({ app: this.app } = await startTestApp(
      { ...webhookDispatcherApp, kafkaConsumer: false },
      {
        API_KEY_SEALING_KEY: this.dataKey,
        WEBHOOK_SECRET_SEALING_KEY: this.secretKey,
        WEBHOOK_RETRY_SCHEDULE_MS: '200,400,1500',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_CIRCUIT_THRESHOLD: '1000',
        // The test receivers listen on loopback, as a developer's would.
        WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true',
        ...this.settings,
      },
    ));
    return this;
  }

  /** Another instance on the same database, keys and settings, as a second replica runs. */
  replica(): Promise<DispatcherFixture> {
    return new DispatcherFixture(this.dataKey, this.secretKey).start(this.settings);
  }

  get<T>(type: new (...args: never[]) => T): T {
    return this.app.get(type);
  }

  /** The gateway's command, answered as the Kafka consumer answers it: the result, or the failure as data. */
  command<T = Record<string, unknown>>(command: WebhookCommand): Promise<CommandReply<T>> {
    const handler = this.get(WebhookCommandsController);
    return commandReply(logger, command.type, () => handler.handle(command)) as Promise<CommandReply<T>>;
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  async business(url: string | null, mode: BusinessMode = 'test'): Promise<TestBusiness> {
    const pending = this.pendingBusiness(url, mode);
    await pending.provision();
    return pending;
  }

  /** A business whose onboarding event has not arrived yet: provision() delivers it. */
  pendingBusiness(url: string | null, mode: BusinessMode = 'test'): TestBusiness & { provision: () => Promise<void> } {
    const businessId = ulid();
    const apiKey = `pk_${mode}_${randomBytes(12).toString('hex')}`;
    const provision = () =>
      this.app.get(BusinessEventsConsumer).handle({
        eventId: randomUUID(),
        type: BusinessProvisionedV1,
        occurredAt: new Date().toISOString(),
        payload: {
          businessId,
          name: 'Receiver Ltd',
          mode,
          webhookUrl: url,
          sealedApiKey: new ApiKeySealer(this.dataKey).seal(apiKey, businessId),
          sealedPosEncryptionKey: 'unused',
        },
      });
    return { businessId, apiKey, provision };
  }

  /** One partner event as it arrives from Kafka; returns its event id. */
  async event(
    businessId: string,
    eventData: Record<string, unknown>,
    event = 'fundAccount.success',
    callbackUrl?: string,
  ): Promise<string> {
    const eventId = randomUUID();
    await this.app.get(PartnerEventsConsumer).handle({
      eventId,
      type: PartnerEventV1,
      occurredAt: new Date().toISOString(),
      businessId,
      payload: { event: event as never, eventData, ...(callbackUrl ? { callbackUrl } : {}) },
    });
    return eventId;
  }

  async deliveries(businessId: string): Promise<{ id: string; status: string; attempts: number; target: string }[]> {
    return this.dataSource.query(
      `SELECT id, status, attempts, target FROM webhooks.deliveries WHERE business_id = $1 ORDER BY created_at`,
      [businessId],
    );
  }

  /** Stops the app and drops the database it made, also after a start that failed. */
  async close(): Promise<void> {
    try {
      if (this.app) await this.app.close();
    } finally {
      await this.dropDatabase?.();
    }
  }
}
