import { randomUUID } from 'node:crypto';

import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  BusinessMode,
  BusinessProvisionedV1,
  CommandReply,
  CreateOutletRequest,
  OutletCommand,
  OutletResponse,
  Topics,
} from '@payments/contracts';
import { singleRow } from '@payments/platform-database';
import { commandReply, DomainError } from '@payments/platform-envelope';
import { eventually, startTestApp } from '@payments/testing';
import { DataSource, QueryRunner } from 'typeorm';
import { ulid } from 'ulid';

import { outletServiceApp } from '../app';
import { BusinessEventsConsumer } from '../businesses/business-events.consumer';
import { OutletCommandsController } from '../commands/outlet-commands.controller';
import { CreditVirtualAccountUseCase } from '../funding/credit-virtual-account.usecase';
import { PricePlan, Product, products } from '../money/price';
import { PricePlansRepository } from '../money/price-plans.repository';
import { OutletsService } from '../outlets/outlets.service';
import { RailQueue, railQueues } from '../rails/rail-queue.repository';
import { RailSettler } from '../rails/rail-settler';
import { RefundSettler } from '../refunds/refund-settler';
import { PayoutSettler } from '../transfers/payout-settler';

const logger = new Logger('OutletServiceFixture');
const freePlan: PricePlan = { percentBps: 0, capKobo: null, floorKobo: 0n, flatKobo: 0n, commissionBps: 0 };

/** The DomainError a promise rejects with; any other outcome fails the test. */
/** An outbox row as the relay will publish it. */
export interface OutboxRow {
  id: string;
  payload: { eventId: string; type: string; businessId?: string; occurredAt: string; payload: Record<string, unknown> };
  headers: Record<string, string>;
}

export async function domainFailure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

type BackgroundWorker = new (...args: never[]) => BeforeApplicationShutdown;

/** Who settles each of the sandbox rail's queues. */
const railSettlers: Record<RailQueue, new (...args: never[]) => RailSettler<unknown>> = {
  payouts: PayoutSettler,
  refunds: RefundSettler,
};

/**
 * Payouts and refunds reach the rail an hour after they are made, unless a test settles them:
 * every suite's outlet-service is a replica on the same database, and one replica's settler
 * would otherwise settle another suite's rows behind its back.
 */
const railDelayMs = String(60 * 60 * 1000);

/** outlet-service in-process on the real database and broker, with helpers to set up money. */
export class OutletServiceFixture {
  private constructor(readonly app: NestFastifyApplication) {}

  /**
   * Starts outlet-service with `env` over the test defaults; the background workers named in
   * `stopped` (sweeps, settlements) are stopped at once, so that they run only when a test calls them.
   */
  static async start(
    options: { stopped?: BackgroundWorker[]; env?: Record<string, string> } = {},
  ): Promise<OutletServiceFixture> {
    // Services are called directly: no Kafka consumer joins the group the running apps use.
    const { app } = await startTestApp(
      { ...outletServiceApp, kafkaConsumer: false },
      {
        SWEEP_POLL_INTERVAL_MS: '200',
        PAYOUT_SETTLE_DELAY_MS: railDelayMs,
        PAYOUT_POLL_INTERVAL_MS: '100',
        ...options.env,
      },
    );
    for (const worker of options.stopped ?? []) await app.get(worker).beforeApplicationShutdown();
    return new OutletServiceFixture(app);
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  get<T>(type: new (...args: never[]) => T): T {
    return this.app.get(type);
  }

  /**
   * Makes the business's waiting payouts or refunds due and settles them: those this replica
   * can, and those another replica took first (each settler skips the rows the other holds).
   */
  async settleRail(queue: RailQueue, businessId: string): Promise<void> {
    const waiting = railQueues[queue];
    await this.dataSource.query(
      `UPDATE outlets.${queue} SET settle_after = now() WHERE id IN (SELECT id FROM ${waiting} AND business_id = $1)`,
      [businessId],
    );
    await eventually(async () => {
      while (await this.get(railSettlers[queue]).settleNext());
      const { count } = await singleRow<{ count: number }>(
        this.dataSource,
        `SELECT count(*)::int AS count FROM ${waiting} AND business_id = $1`,
        [businessId],
      );
      return count === 0 ? true : undefined;
    });
  }

  /** The gateway's command, answered as the Kafka consumer answers it: the result, or the failure as data. */
  command<T = Record<string, unknown>>(command: OutletCommand): Promise<CommandReply<T>> {
    const handler = this.get(OutletCommandsController);
    return commandReply(logger, command.type, () => handler.handle(command)) as Promise<CommandReply<T>>;
  }

  /**
   * A provisioned business, as if the gateway had announced it on Kafka. It pays nothing unless
   * `pricing` is 'default', so tests about other things can count money in round figures.
   */
  async business(
    mode: BusinessMode = 'test',
    businessId = ulid(),
    pricing: 'free' | 'default' = 'free',
  ): Promise<string> {
    await this.app.get(BusinessEventsConsumer).handle({
      eventId: randomUUID(),
      type: BusinessProvisionedV1,
      occurredAt: new Date().toISOString(),
      payload: {
        businessId,
        name: `Business ${businessId.slice(-6)}`,
        mode,
        webhookUrl: null,
        sealedApiKey: 'v1.x',
        sealedPosEncryptionKey: 'v1.x',
      },
    });
    if (pricing === 'free') await this.setPlan(businessId, products, freePlan);
    return businessId;
  }

  /** Puts `plan` in force for the business's next payments of these products. */
  async setPlan(businessId: string, forProducts: readonly Product[], plan: PricePlan): Promise<void> {
    const plans = this.app.get(PricePlansRepository);
    for (const product of forProducts) await plans.set(this.dataSource.manager, businessId, product, plan, 'test');
  }

  outlet(businessId: string, request: Partial<CreateOutletRequest> = {}): Promise<OutletResponse> {
    return this.app.get(OutletsService).create(businessId, { accountName: 'Outlet', ...request }, undefined, ulid());
  }

  async fund(accountNumber: string, amount: bigint): Promise<void> {
    await this.app
      .get(CreditVirtualAccountUseCase)
      .execute(accountNumber, { amount: amount.toString(), sessionId: randomUUID() });
  }

  async balances(walletId: string): Promise<{ ledger: bigint; available: bigint }> {
    const row = await singleRow<{
      ledger_balance: string;
      held_balance: string;
    }>(this.dataSource, `SELECT ledger_balance, held_balance FROM outlets.wallets WHERE id = $1`, [walletId]);
    return { ledger: BigInt(row.ledger_balance), available: BigInt(row.ledger_balance) - BigInt(row.held_balance) };
  }

  /** The business's journal entries whose postings do not sum to zero: always none, or the ledger is broken. */
  async unbalancedEntries(businessId: string): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT p.entry_id FROM outlets.postings p JOIN outlets.journal_entries e ON e.id = p.entry_id
       WHERE e.business_id = $1 GROUP BY p.entry_id HAVING sum(p.amount) <> 0`,
      [businessId],
    )) as { entry_id: string }[];
    return rows.map((row) => row.entry_id);
  }

  /**
   * The outbox rows this business's commits queued on `topic`, oldest first; through `runner`
   * to see a transaction's own uncommitted rows.
   */
  async outboxRows(
    topic: string,
    businessId: string,
    runner: Pick<DataSource, 'query'> | Pick<QueryRunner, 'query'> = this.dataSource,
  ): Promise<OutboxRow[]> {
    return (await runner.query(
      `SELECT id, payload, headers FROM outlets.outbox WHERE topic = $1 AND message_key = $2 ORDER BY sequence`,
      [topic, businessId],
    )) as OutboxRow[];
  }

  /** Partner events this business's commits queued, oldest first. */
  async partnerEvents(businessId: string): Promise<{ event: string; eventData: Record<string, unknown> }[]> {
    const rows = await this.outboxRows(Topics.partnerEvents.name, businessId);
    return rows.map((row) => row.payload.payload as { event: string; eventData: Record<string, unknown> });
  }

  close(): Promise<void> {
    return this.app.close();
  }
}
