import { TableGrants } from '@payments/platform-database';
import { outboxGrants } from '@payments/platform-outbox';

/** What card-processor's role may do to each table of card_processor (docs/deploy.md, least privilege). */
export const tableGrants = {
  ...outboxGrants,
  // A charge moves through its steps to an end (locked FOR UPDATE while it does); its card,
  // amount and checkout never change.
  card_charges: ['SELECT', 'INSERT', 'UPDATE (steps, attempts_left, status, decline_reason, updated_at)'],
  // A terminal's authorisation is decided once.
  pos_authorisations: ['SELECT', 'INSERT'],
} as const satisfies TableGrants;
