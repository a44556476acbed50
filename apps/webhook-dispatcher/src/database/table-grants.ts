import { TableGrants } from '@payments/platform-database';
import { outboxGrants } from '@payments/platform-outbox';

/** What webhook-dispatcher's role may do to each table of webhooks (docs/deploy.md, least privilege). */
export const tableGrants = {
  ...outboxGrants,
  // The record of each attempt a partner's server saw.
  attempts: ['SELECT', 'INSERT'],
  circuits: ['SELECT', 'INSERT', 'UPDATE'],
  deliveries: ['SELECT', 'INSERT', 'UPDATE'],
  // Events held until their business's endpoint exists, then moved into deliveries.
  early_events: ['SELECT', 'INSERT', 'DELETE'],
  endpoints: ['SELECT', 'INSERT', 'UPDATE'],
  // A partner may remove an endpoint it added.
  partner_endpoints: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  // A roll's Idempotency-Key, then its sealed answer once the roll is done.
  secret_rolls: ['SELECT', 'INSERT', 'UPDATE (response_sealed)'],
} as const satisfies TableGrants;
