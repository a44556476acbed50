import { Injectable } from '@nestjs/common';
import { newUlid } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { EntityManager } from 'typeorm';

import { JournalRepository } from './journal.repository';
import { availableBalance, Wallet } from './wallets.repository';

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
  constructor(private readonly journal: JournalRepository) {}

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
    const createdAt = await this.journal.insert(em, {
      id,
      businessId: entry.businessId,
      kind: entry.kind,
      reference: entry.reference,
      narration: entry.narration ?? null,
      postings: entry.postings.map(({ wallet, amount }) => ({ walletId: wallet.id, amount })),
    });
    for (const posting of entry.postings) posting.wallet.ledgerBalance += posting.amount;
    return { id, createdAt };
  }
}
