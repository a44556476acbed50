import { TableGrants } from '@payments/platform-database';

/** What an app's role may do to the outbox tables every app has (outboxEntities). */
export const outboxGrants = {
  // Written with the change each row reports; the relay's claim marks rows sent (published_at
  // only: an event's content never changes), and prune deletes sent rows past their retention.
  outbox: ['SELECT', 'INSERT', 'UPDATE (published_at)', 'DELETE'],
  // The dedupe record of each event applied, pruned past its retention. The prune's row locks
  // (FOR UPDATE SKIP LOCKED) need UPDATE on a column: processed_at, which DELETE can undo anyway.
  processed_events: ['SELECT', 'INSERT', 'UPDATE (processed_at)', 'DELETE'],
} as const satisfies TableGrants;
