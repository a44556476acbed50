import { TableGrants } from '@payments/platform-database';
import { outboxGrants } from '@payments/platform-outbox';

/** What pos-ingest's role may do to each table of pos_ingest (docs/deploy.md, least privilege). */
export const tableGrants = {
  ...outboxGrants,
  // A business's POS key never changes; only its seal, under a rotated key (keys:reseal).
  integrators: ['SELECT', 'INSERT', 'UPDATE (pos_key_sealed)'],
  outlets: ['SELECT', 'INSERT'],
  rate_limit_overrides: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  // Counters of the current windows, swept once they have ended.
  rate_limit_windows: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  // A terminal registered again moves to another outlet of its business, or gets a PIN key; its
  // serial number and business never change.
  terminals: ['SELECT', 'INSERT', 'UPDATE (outlet_id, pin_key_under_lmk)'],
} as const satisfies TableGrants;
