import { Injectable } from '@nestjs/common';
import {
  CreateRefundRequest,
  ListRefundsFilters,
  PartnerEvents,
  refundCursor,
  RefundPage,
  RefundResponse,
} from '@payments/contracts';
import { apiError, requireSandboxRail } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { PartnerEventsOutbox } from '../events/partner-events';
import { MoneyCommandsRepository } from '../money/money-commands.repository';
import { availableBalance, WalletsRepository } from '../money/wallets.repository';
import { PayoutSettings } from '../rails/payout-settings';
import { refundEvent } from './refund-event';
import { RefundablePaymentsRepository } from './refundable-payments.repository';
import { RefundsRepository, toRefundResponse } from './refunds.repository';

/**
 * Refunds partners ask for, of a paid checkout or a POS payment: full or partial, several
 * partials adding up to what was paid and never more. Accepted refunds hold their amount on the
 * wallet the payment reached at once; the sandbox rail settles them (RefundSettler).
 */
@Injectable()
export class RefundsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly businesses: BusinessesRepository,
    private readonly commands: MoneyCommandsRepository,
    private readonly payments: RefundablePaymentsRepository,
    private readonly refunds: RefundsRepository,
    private readonly wallets: WalletsRepository,
    private readonly events: PartnerEventsOutbox,
    private readonly rail: PayoutSettings,
  ) {}

  async create(businessId: string, request: CreateRefundRequest, idempotencyKey: string): Promise<RefundResponse> {
    return this.dataSource.transaction(async (em) => {
      const tenant = await this.businesses.require(em, businessId);
      requireSandboxRail(tenant.mode, 'Refunds');
      const key = { namespace: 'idempotency-key', reference: idempotencyKey } as const;
      return this.commands.once(em, businessId, key, 'refund', request, async () => {
        const { transactionReference } = request;
        const payment = await this.payments.find(em, businessId, transactionReference);
        if (!payment) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${transactionReference} not found`);
        // The wallet's lock also queues concurrent refunds of the payment: each counts the ones before it.
        const wallet = (await this.wallets.lock(em, businessId, [payment.walletId])).get(payment.walletId)!;
        const remaining = payment.amount - (await this.refunds.refundedAmount(em, businessId, transactionReference));
        if (remaining <= 0n) {
          throw apiError('REFUND_NOT_ALLOWED', `Transaction ${transactionReference} has already been fully refunded`);
        }
        const amount = request.amount === undefined ? remaining : BigInt(request.amount);
        if (amount > remaining) {
          throw apiError(
            'REFUND_NOT_ALLOWED',
            `At most ${remaining} kobo of transaction ${transactionReference} can still be refunded`,
          );
        }
        if (availableBalance(wallet) < amount) {
          throw apiError('INSUFFICIENT_FUNDS', `Wallet ${wallet.id} has insufficient available balance for the refund`);
        }
        await this.wallets.changeHeld(em, wallet.id, amount);
        const refund = await this.refunds.addRequested(em, {
          businessId,
          transactionReference,
          productType: payment.productType,
          amount,
          reason: request.reason ?? null,
          walletId: wallet.id,
          settleAfterSeconds: this.rail.settleDelayMs / 1000,
        });
        await this.events.add(
          em,
          businessId,
          PartnerEvents.refundPending,
          refundEvent(refund, wallet, payment.outletId),
        );
        return toRefundResponse(refund);
      });
    });
  }

  /** A page of the business's refunds, newest first; one more is read to know whether another page follows. */
  async list(businessId: string, filters: ListRefundsFilters): Promise<RefundPage> {
    const rows = await this.refunds.newestFirst(this.dataSource.manager, businessId, {
      ...filters,
      limit: filters.limit + 1,
    });
    const shown = rows.slice(0, filters.limit);
    const more = rows.length > filters.limit;
    return {
      items: shown.map(toRefundResponse),
      nextCursor: more ? refundCursor.encode(shown[shown.length - 1].id) : null,
    };
  }

  async get(businessId: string, reference: string): Promise<RefundResponse> {
    const refund = await this.refunds.get(this.dataSource.manager, businessId, reference);
    if (!refund) throw apiError('REFUND_NOT_FOUND', `Refund ${reference} not found`);
    return toRefundResponse(refund);
  }
}
