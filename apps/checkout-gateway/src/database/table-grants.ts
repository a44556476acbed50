import { TableGrants } from '@payments/platform-database';
import { outboxGrants } from '@payments/platform-outbox';

/** What checkout-gateway's role may do to each table of gateway (docs/deploy.md, least privilege). */
export const tableGrants = {
  ...outboxGrants,
  // A key roll and a team change lock their business's row (FOR UPDATE), which takes UPDATE; an
  // owner requires two factors of everyone.
  businesses: ['SELECT', 'INSERT', 'UPDATE'],
  // A pair's hashes never change; only when it stops working, and when that was audited, and
  // its sealed API key when sealed again under a rotated key (keys:reseal).
  business_keys: ['SELECT', 'INSERT', 'UPDATE (expires_at, expiry_recorded_at, api_key_sealed)'],
  // Recent card attempts, swept once they can no longer count.
  card_attempts: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  // A checkout's amount and payer details never change; only how it ended.
  checkouts: ['SELECT', 'INSERT', 'UPDATE (status, used_method, masked_card, updated_at)'],
  // A key is claimed, then answered once; never freed for another request.
  idempotency_keys: ['SELECT', 'INSERT', 'UPDATE (response)'],
  key_audit: ['SELECT', 'INSERT'],
  // The dashboard's trail: written once, never changed.
  audit_events: ['SELECT', 'INSERT'],
  // Forgotten on signing out everywhere, and swept once older than their cookie.
  member_devices: ['SELECT', 'INSERT', 'DELETE'],
  // A link is used once (when it was), and withdrawn when its owner no longer is one (its expiry).
  member_invitations: ['SELECT', 'INSERT', 'UPDATE (accepted_at, expires_at)'],
  // A session is seen, then ended; swept once expired.
  member_sessions: ['SELECT', 'INSERT', 'UPDATE (seen_at)', 'DELETE'],
  // A member's role and second factor change (the sealed secret also when sealed again by
  // keys:reseal); an owner removes members.
  members: ['SELECT', 'INSERT', 'UPDATE (role, totp_secret_sealed, totp_enabled_at, totp_last_step)', 'DELETE'],
  // Counters of the current windows, swept once they have ended.
  sign_in_attempts: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  rate_limit_overrides: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  // Counters of the current windows, swept once they have ended.
  rate_limit_windows: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  // The partner's view of each payment, kept up to date from the events.
  transactions: ['SELECT', 'INSERT', 'UPDATE'],
} as const satisfies TableGrants;
