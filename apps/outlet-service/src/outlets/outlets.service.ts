import { Injectable } from '@nestjs/common';
import {
  CreateOutletRequest,
  OutletOpenedV1,
  OutletOpenedV1Payload,
  OutletPageResponse,
  OutletResponse,
  PartnerEvents,
  Topics,
  WalletResponse,
} from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';
import { Outbox } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { PartnerEventsOutbox } from '../events/partner-events';
import { CommandKey, MoneyCommandsRepository } from '../money/money-commands.repository';
import { toWalletResponse, Wallet, WalletsRepository } from '../money/wallets.repository';
import { OutletRow, OutletsRepository } from './outlets.repository';

const depositSuffix = ' (deposit)';

@Injectable()
export class OutletsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outlets: OutletsRepository,
    private readonly businesses: BusinessesRepository,
    private readonly wallets: WalletsRepository,
    private readonly events: PartnerEventsOutbox,
    private readonly outbox: Outbox,
    private readonly commands: MoneyCommandsRepository,
  ) {}

  /**
   * The outlet, its two wallets, its outlet.created event and the outlet.opened.v1 that tells
   * pos-ingest of it commit together or not at all. Once per Idempotency-Key, or per gateway
   * command when the partner sent none, so neither a retry after a 503 nor a redelivered command
   * creates a second outlet.
   */
  async create(
    businessId: string,
    request: CreateOutletRequest,
    idempotencyKey: string | undefined,
    commandId: string,
  ): Promise<OutletResponse> {
    const key: CommandKey = idempotencyKey
      ? { namespace: 'idempotency-key', reference: idempotencyKey }
      : { namespace: 'command', reference: commandId };
    return this.dataSource.transaction(async (em) => {
      await this.businesses.require(em, businessId);
      return this.commands.once(em, businessId, key, 'create_outlet', request, () =>
        this.insert(em, businessId, request),
      );
    });
  }

  private async insert(em: EntityManager, businessId: string, request: CreateOutletRequest): Promise<OutletResponse> {
    const row = await this.outlets.insert(em, businessId, {
      accountName: request.accountName,
      externalReference: request.externalReference ?? null,
      address: request.address ?? null,
    });
    if (!row) {
      throw apiError(
        'EXTERNAL_REFERENCE_DUPLICATE',
        `An outlet with externalReference ${request.externalReference} already exists; find it with GET /outlets?search=${request.externalReference}`,
      );
    }
    const collection = await this.wallets.create(em, {
      businessId,
      outletId: row.id,
      type: 'collection',
      accountName: request.accountName,
      withAccountNumber: true,
    });
    const deposit = await this.wallets.create(em, {
      businessId,
      outletId: row.id,
      type: 'deposit',
      accountName: request.accountName + depositSuffix,
      withAccountNumber: true,
    });
    const outlet = toOutletResponse(row, [collection, deposit]);
    await this.events.add(em, businessId, PartnerEvents.outletCreated, outlet);
    await this.outbox.enqueue<OutletOpenedV1Payload>(em, {
      topic: Topics.businessEvents,
      type: OutletOpenedV1,
      key: businessId,
      businessId,
      payload: { businessId, outletId: row.id },
    });
    return outlet;
  }

  /** Unknown and other-business ids answer the same 404, so ids cannot be probed. */
  async get(businessId: string, outletId: string): Promise<OutletResponse> {
    const em = this.dataSource.manager;
    await this.businesses.require(em, businessId);
    const row = await this.outlets.find(em, businessId, outletId);
    if (!row) throw apiError('OUTLET_NOT_FOUND', `Outlet ${outletId} not found`);
    return toOutletResponse(row, await this.wallets.ofOutlets(em, businessId, [row.id]));
  }

  /** The business's own wallet: checkout payments and sweeps land here. */
  async settlementWallet(businessId: string): Promise<WalletResponse> {
    const em = this.dataSource.manager;
    await this.businesses.require(em, businessId);
    return toWalletResponse(await this.wallets.systemWallet(em, businessId, 'settlement'));
  }

  /** externalReference exactly, or accountName by case-insensitive prefix; newest first. */
  async search(
    businessId: string,
    query: { search?: string; page: number; limit: number },
  ): Promise<OutletPageResponse> {
    const em = this.dataSource.manager;
    await this.businesses.require(em, businessId);
    const term = query.search?.trim() || null;
    const { rows, total } = await this.outlets.search(em, businessId, {
      term,
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    });
    const wallets = await this.wallets.ofOutlets(
      em,
      businessId,
      rows.map((row) => row.id),
    );
    return {
      items: rows.map((row) =>
        toOutletResponse(
          row,
          wallets.filter((wallet) => wallet.outletId === row.id),
        ),
      ),
      meta: { page: query.page, limit: query.limit, total },
    };
  }
}

function toOutletResponse(row: OutletRow, wallets: Wallet[]): OutletResponse {
  const collection = wallets.find((wallet) => wallet.type === 'collection');
  const deposit = wallets.find((wallet) => wallet.type === 'deposit');
  if (!collection || !deposit) throw new Error(`outlet ${row.id} is missing a wallet`);
  return {
    outletId: row.id,
    accountName: row.account_name,
    externalReference: row.external_reference,
    address: row.address,
    collectionWallet: toWalletResponse(collection),
    depositWallet: toWalletResponse(deposit),
    createdAt: row.created_at.toISOString(),
  };
}
