import { Injectable } from '@nestjs/common';
import { newUlid } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { EntityManager } from 'typeorm';

import { availableBalance, Wallet } from '../wallets/wallets.repository';

export interface Posting {
  wallet: Wallet;
  /** Signed kobo: negative leaves the wallet, positive enters it. */
  amount: bigint;
}

export interface JournalEntry {
  id: string;
  createdAt: Date;
}

/**
 * Writes one journal entry. Callers lock the wallets first (WalletsRepository.lock) and run
 * this in the transaction that also writes their outbox events. The database applies each
 * posting to its wallet's balance and refuses an entry that does not sum to zero.
 */
@Injectable()
export class LedgerService {
  async post(
    em: EntityManager,
    entry: { businessId: string; kind: string; reference: string; narration?: string | null; postings: Posting[] },
  ): Promise<JournalEntry> {
    const total = entry.postings.reduce((sum, posting) => sum + posting.amount, 0n);
    if (total !== 0n || entry.postings.some((posting) => posting.amount === 0n)) {
      throw new Error(`journal entry ${entry.kind}:${entry.reference} is unbalanced`);
    }
    for (const { wallet, amount } of entry.postings) {
      if (amount < 0n && !wallet.allowNegative && availableBalance(wallet) + amount < 0n) {
        throw apiError('INSUFFICIENT_FUNDS', `Wallet ${wallet.id} has insufficient available balance`);
      }
    }
    const id = newUlid();
    const [row] = (await em.query(
      `INSERT INTO outlets.journal_entries (id, business_id, kind, reference, narration) VALUES ($1, $2, $3, $4, $5) RETURNING created_at`,
      [id, entry.businessId, entry.kind, entry.reference, entry.narration ?? null],
    )) as { created_at: Date }[];
    await em.query(
      `INSERT INTO outlets.postings (entry_id, wallet_id, amount) SELECT $1, unnest($2::text[]), unnest($3::bigint[])`,
      [
        id,
        entry.postings.map((posting) => posting.wallet.id),
        entry.postings.map((posting) => posting.amount.toString()),
      ],
    );
    for (const posting of entry.postings) posting.wallet.ledgerBalance += posting.amount;
    return { id, createdAt: row.created_at };
  }
}
