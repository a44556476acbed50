import { TableGrants } from '@payments/platform-database';
import { outboxGrants } from '@payments/platform-outbox';

/**
 * What outlet-service's role may do to each table of outlets (docs/deploy.md, least privilege).
 * The ledger is append-only, and a money command's claim can never be deleted, which would let
 * its reference book a second time.
 */
export const tableGrants = {
  ...outboxGrants,
  // Events that arrived before their business, replayed and then removed.
  awaiting_onboarding: ['SELECT', 'INSERT', 'DELETE'],
  checkout_accounts: ['SELECT', 'INSERT', 'UPDATE (paid_at)'],
  // How a checkout ended is decided once; the charge it booked is added in the same transaction.
  checkout_outcomes: ['SELECT', 'INSERT', 'UPDATE (fee, commission, net_amount)'],
  journal_entries: ['SELECT', 'INSERT'],
  // Claimed, then answered in the same transaction.
  money_commands: ['SELECT', 'INSERT', 'UPDATE (result)'],
  outlets: ['SELECT', 'INSERT'],
  payouts: ['SELECT', 'INSERT', 'UPDATE (status, settled_at)'],
  postings: ['SELECT', 'INSERT'],
  price_plans: ['SELECT', 'INSERT'],
  // A refund of a card payment leaves the rail's queue for the card network, then settles.
  refunds: ['SELECT', 'INSERT', 'UPDATE (status, journal_entry_id, settled_at, sent_to_card_network_at, updated_at)'],
  // Sweep settings and schedule change; the due sweeps are claimed FOR UPDATE.
  tenants: ['SELECT', 'INSERT', 'UPDATE'],
  // Balances move by postings (the postings_apply trigger, as the inserting role) and holds;
  // a wallet's owner, type and account number never change.
  wallets: ['SELECT', 'INSERT', 'UPDATE (ledger_balance, held_balance)'],
} as const satisfies TableGrants;
