import { TableGrants } from '@payments/platform-database';
import { outboxGrants } from '@payments/platform-outbox';

/** What card-processor's role may do to each table of card_processor (docs/deploy.md, least privilege). */
export const tableGrants = {
  ...outboxGrants,
  // A charge moves through its steps to an end (locked FOR UPDATE while it does); its card,
  // amount and checkout never change.
  card_charges: ['SELECT', 'INSERT', 'UPDATE (steps, attempts_left, status, decline_reason, sealed_card, updated_at)'],
  // A terminal's authorisation is begun when its request goes out, and decided once.
  pos_authorisations: ['SELECT', 'INSERT', 'UPDATE (approved, decline_reason)'],
  // A network request is decided, or given up and reversed; who it was for never changes.
  // sending_at is written only by instances of the release before 0066, during a rollout.
  network_requests: [
    'SELECT',
    'INSERT',
    'UPDATE (state, response_code, authorisation_code, settlement_date, sealed_pan, sending_at, reversal_attempts, reversal_due_at, reversal_code, reversed_at, approved_late_at, updated_at)',
  ],
  // A card refund is begun when its request goes out, and decided once.
  card_refunds: ['SELECT', 'INSERT', 'UPDATE (approved, decline_reason)'],
  // Reconciliations are written by `npm run reconcile` as the schema's owner; the app reads them for its metrics.
  reconciliations: ['SELECT'],
  // Acceptor ids are drawn once and kept.
  card_merchants: ['SELECT', 'INSERT'],
  card_terminals: ['SELECT', 'INSERT'],
} as const satisfies TableGrants;
