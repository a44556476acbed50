import { randomBytes } from 'node:crypto';

import { ListRefundsQuery, OutletCommand, refundCursor, RefundPage } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';

import { Business } from '../businesses/business.entity';
import { CheckoutsRepository } from '../checkouts/checkouts.repository';
import { PageCursors } from '../common/page-cursors';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { RefundsService } from './refunds.service';

const business = { id: 'BUS-1' } as Business;
const refundId = '01JD3Q8ZK4T6W2V9XG5H7M1N3T';

/** RefundsService over an outlet-service that answers `page` and remembers what it was asked. */
function refunds(page: RefundPage) {
  const asked: OutletCommand[] = [];
  const outletService = {
    send: async (command: OutletCommand) => {
      asked.push(command);
      return page;
    },
  } as unknown as OutletServiceClient;
  const service = new RefundsService(
    outletService,
    {} as CheckoutsRepository,
    new PageCursors(randomBytes(32).toString('base64')),
  );
  return { service, asked };
}

const query = (cursor?: string) => ({ limit: 1, ...(cursor ? { cursor } : {}) }) as ListRefundsQuery;

describe('RefundsService.list', () => {
  it("gives its own sealed cursor for outlet-service's, and asks for the page after that refund with it", async () => {
    const { service, asked } = refunds({ items: [], nextCursor: refundCursor.encode(refundId) });
    const first = await service.list(business, query());
    expect(first.nextCursor).not.toBe(refundCursor.encode(refundId));
    await service.list(business, query(first.nextCursor!));
    expect(asked.map((command) => (command as { filters: { before?: string } }).filters.before)).toEqual([
      undefined,
      refundId,
    ]);
  });

  it("answers 422 naming the cursor for outlet-service's own cursor, or any it did not give, asking nothing", async () => {
    const { service, asked } = refunds({ items: [], nextCursor: null });
    for (const forged of [refundCursor.encode(refundId), 'MTIzNDU']) {
      const error = await service.list(business, query(forged)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DomainError);
      expect([(error as DomainError).status, (error as DomainError).details.errors]).toEqual([
        422,
        [{ field: 'cursor', messages: ['cursor must be a nextCursor this API returned'] }],
      ]);
    }
    expect(asked).toEqual([]);
  });
});
