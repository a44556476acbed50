import { Injectable } from '@nestjs/common';
import { CheckoutClosing, CheckoutOutcome } from '@payments/contracts';
import { DataSource } from 'typeorm';

import { CheckoutBooking } from './checkout-booking';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';

/** Checkouts ended without a payment: expired, or their card declined. */
@Injectable()
export class CheckoutClosings {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outcomes: CheckoutOutcomesRepository,
    private readonly booking: CheckoutBooking,
  ) {}

  /** Ends checkouts FAILED unless a payment decided them first; answers each one's outcome. */
  async close(closings: CheckoutClosing[]): Promise<CheckoutOutcome[]> {
    // One order for every caller, so two closers of overlapping batches queue instead of deadlocking.
    const ordered = [...closings].sort((a, b) => a.checkoutReference.localeCompare(b.checkoutReference));
    return this.dataSource.transaction(async (em) => {
      const outcomes: CheckoutOutcome[] = [];
      for (const closing of ordered) {
        const { outcome, decided } = await this.outcomes.decide(em, { ...closing, status: 'FAILED' });
        if (decided) await this.booking.announce(em, outcome);
        outcomes.push(outcome);
      }
      return outcomes;
    });
  }
}
