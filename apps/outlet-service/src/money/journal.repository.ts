import { Injectable } from '@nestjs/common';
import { singleRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

export interface NewJournalEntry {
  id: string;
  businessId: string;
  kind: string;
  reference: string;
  narration: string | null;
  /** Signed kobo per wallet id. */
  postings: { walletId: string; amount: bigint }[];
}

/** outlets.journal_entries and outlets.postings. The database applies each posting to its wallet's balance. */
@Injectable()
export class JournalRepository {
  /** Writes the entry and its postings; returns when the entry was created. */
  async insert(em: EntityManager, entry: NewJournalEntry): Promise<Date> {
    const row = await singleRow<{ created_at: Date }>(
      em,
      `INSERT INTO outlets.journal_entries (id, business_id, kind, reference, narration)
       VALUES ($1, $2, $3, $4, $5) RETURNING created_at`,
      [entry.id, entry.businessId, entry.kind, entry.reference, entry.narration],
    );
    await em.query(
      `INSERT INTO outlets.postings (entry_id, wallet_id, amount) SELECT $1, unnest($2::text[]), unnest($3::bigint[])`,
      [
        entry.id,
        entry.postings.map((posting) => posting.walletId),
        entry.postings.map((posting) => posting.amount.toString()),
      ],
    );
    return row.created_at;
  }
}
