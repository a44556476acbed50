import { Injectable } from '@nestjs/common';
import { CreateRefundRequest, ListRefundsQuery, refundCursor, RefundPage, RefundResponse } from '@payments/contracts';
import { apiError, invalidFields, requireSandboxRail, ValidationFailedError } from '@payments/platform-envelope';

import { Business } from '../businesses/business.entity';
import { CheckoutsRepository } from '../checkouts/checkouts.repository';
import { PageCursors } from '../common/page-cursors';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

/** Refunds are booked and settled by outlet-service; the gateway checks what only it knows first. */
@Injectable()
export class RefundsService {
  constructor(
    private readonly outletService: OutletServiceClient,
    private readonly checkouts: CheckoutsRepository,
    private readonly cursors: PageCursors,
  ) {}

  async create(business: Business, request: CreateRefundRequest, idempotencyKey?: string): Promise<RefundResponse> {
    // Before anything about the payment: no live rail pays a refund back, whatever it refunds.
    requireSandboxRail(business.mode, 'Refunds');
    if (!idempotencyKey) {
      throw new ValidationFailedError([
        { field: 'Idempotency-Key', messages: ['Idempotency-Key is required: a retry must never refund twice'] },
      ]);
    }
    // The gateway knows checkouts the ledger never saw: one not paid says so rather than "not found".
    const checkout = await this.checkouts.find(business.id, request.transactionReference);
    if (checkout && checkout.status !== 'SUCCESS') {
      throw apiError(
        'REFUND_NOT_ALLOWED',
        `Checkout ${checkout.reference} has not been paid (${checkout.status}): there is nothing to refund`,
      );
    }
    return this.outletService.send({ type: 'createRefund', businessId: business.id, request, idempotencyKey });
  }

  /**
   * A page of refunds. outlet-service cuts pages after a refund id; the gateway seals that id
   * into the cursor it gives (see PageCursors) and reads it back here, so one this API did not
   * give answers 422 before anything is asked.
   */
  async list(business: Business, { cursor, limit, ...filters }: ListRefundsQuery): Promise<RefundPage> {
    const before = cursor === undefined ? undefined : this.cursors.read('refunds', business.id, cursor);
    if (filters.from && filters.to && Date.parse(filters.from) >= Date.parse(filters.to)) {
      throw invalidFields(['from', 'to'], 'from must be before to');
    }
    const page = await this.outletService.send({
      type: 'listRefunds',
      businessId: business.id,
      filters: { ...filters, limit, ...(before ? { before } : {}) },
    });
    return { ...page, nextCursor: page.nextCursor === null ? null : this.cursorAfter(business.id, page.nextCursor) };
  }

  /** outlet-service's cursor names the refund id the next page starts after; partners get it sealed. */
  private cursorAfter(businessId: string, outletServiceCursor: string): string {
    const refundId = refundCursor.decode(outletServiceCursor);
    if (refundId === null) throw new Error(`outlet-service answered a refunds cursor it does not make`);
    return this.cursors.issue('refunds', businessId, refundId);
  }

  get(business: Business, reference: string): Promise<RefundResponse> {
    return this.outletService.send({ type: 'getRefund', businessId: business.id, reference });
  }
}
