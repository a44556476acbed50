import { Injectable } from '@nestjs/common';
import { singleRow } from '@payments/platform-database';
import { LRUCache } from 'lru-cache';
import { EntityManager } from 'typeorm';

/** A business's checkouts are one virtual terminal; each POS terminal is its own. */
export type TerminalKey = { kind: 'checkout' } | { kind: 'pos'; serialNumber: string };

/** DE42 and DE41 as a payment's acceptor is known on the networks. */
export interface AcceptorIds {
  merchant_id: string;
  terminal_id: string;
}

/**
 * card_processor.card_merchants and card_terminals: the DE42 a business is known by on the
 * networks, and the DE41 of each of its terminals. Drawn on first use, kept for ever; two
 * requests drawing at once keep the first one written.
 */
@Injectable()
export class CardAcceptorsRepository {
  /** Ids never change once committed: a payment of a known acceptor reads none. */
  private readonly committed = new LRUCache<string, AcceptorIds>({ max: 50_000 });

  async acceptorIds(em: EntityManager, businessId: string, terminal: TerminalKey): Promise<AcceptorIds> {
    const key = terminal.kind === 'checkout' ? 'checkout' : `pos:${terminal.serialNumber}`;
    const cacheKey = `${businessId}\u0000${key}`;
    const known = this.committed.get(cacheKey);
    if (known) return known;
    // Checkouts' terminals start with C, terminals' with P: an operator reading a switch's
    // report sees which kind of payment a line is.
    const prefix = terminal.kind === 'checkout' ? 'C' : 'P';
    const { drawn } = await singleRow<{ drawn: boolean }>(
      em,
      `WITH merchant AS (
         INSERT INTO card_processor.card_merchants (business_id, merchant_id)
         SELECT $1, 'PAY' || lpad(nextval('card_processor.merchant_numbers')::text, 12, '0')
         WHERE NOT EXISTS (SELECT 1 FROM card_processor.card_merchants WHERE business_id = $1)
         ON CONFLICT DO NOTHING RETURNING 1
       ), terminal AS (
         INSERT INTO card_processor.card_terminals (business_id, terminal_key, terminal_id)
         SELECT $1, $2, $3 || lpad(nextval('card_processor.terminal_numbers')::text, 7, '0')
         WHERE NOT EXISTS (SELECT 1 FROM card_processor.card_terminals WHERE business_id = $1 AND terminal_key = $2)
         ON CONFLICT DO NOTHING RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM merchant) OR EXISTS (SELECT 1 FROM terminal) AS drawn`,
      [businessId, key, prefix],
    );
    // A statement of its own: it sees the rows a concurrent first use committed meanwhile.
    const ids = await singleRow<AcceptorIds>(
      em,
      `SELECT m.merchant_id, t.terminal_id FROM card_processor.card_merchants m
       JOIN card_processor.card_terminals t ON t.business_id = m.business_id AND t.terminal_key = $2
       WHERE m.business_id = $1`,
      [businessId, key],
    );
    // Ids this transaction drew are not remembered: it may yet roll back, and another draw win.
    if (!drawn) this.committed.set(cacheKey, ids);
    return ids;
  }
}
