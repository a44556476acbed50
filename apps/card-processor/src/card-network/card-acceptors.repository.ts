import { Injectable } from '@nestjs/common';
import { singleRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/** A business's checkouts are one virtual terminal; each POS terminal is its own. */
export type TerminalKey = { kind: 'checkout' } | { kind: 'pos'; serialNumber: string };

/**
 * card_processor.card_merchants and card_terminals: the DE42 a business is known by on the
 * networks, and the DE41 of each of its terminals. Drawn on first use, kept for ever; two
 * requests drawing at once keep the first one written.
 */
@Injectable()
export class CardAcceptorsRepository {
  async acceptorIds(em: EntityManager, businessId: string, terminal: TerminalKey) {
    const key = terminal.kind === 'checkout' ? 'checkout' : `pos:${terminal.serialNumber}`;
    // Checkouts' terminals start with C, terminals' with P: an operator reading a switch's
    // report sees which kind of payment a line is.
    const prefix = terminal.kind === 'checkout' ? 'C' : 'P';
    await em.query(
      `WITH merchant AS (
         INSERT INTO card_processor.card_merchants (business_id, merchant_id)
         SELECT $1, 'PAY' || lpad(nextval('card_processor.merchant_numbers')::text, 12, '0')
         WHERE NOT EXISTS (SELECT 1 FROM card_processor.card_merchants WHERE business_id = $1)
         ON CONFLICT DO NOTHING
       ), terminal AS (
         INSERT INTO card_processor.card_terminals (business_id, terminal_key, terminal_id)
         SELECT $1, $2, $3 || lpad(nextval('card_processor.terminal_numbers')::text, 7, '0')
         WHERE NOT EXISTS (SELECT 1 FROM card_processor.card_terminals WHERE business_id = $1 AND terminal_key = $2)
         ON CONFLICT DO NOTHING
       )
       SELECT 1`,
      [businessId, key, prefix],
    );
    // A statement of its own: it sees the rows a concurrent first use committed meanwhile.
    return singleRow<{ merchant_id: string; terminal_id: string }>(
      em,
      `SELECT m.merchant_id, t.terminal_id FROM card_processor.card_merchants m
       JOIN card_processor.card_terminals t ON t.business_id = m.business_id AND t.terminal_key = $2
       WHERE m.business_id = $1`,
      [businessId, key],
    );
  }
}
