import { firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/**
 * The rows waiting for the rail in each of its queues: a table and the status of its waiting
 * rows, spelled out so that they go into a statement as they are.
 */
export const railQueues = {
  payouts: `outlets.payouts WHERE status = 'PROCESSING'`,
  // A refund of a card payment sent to the card network waits for its answer, not the rail.
  refunds: `outlets.refunds WHERE status = 'PENDING' AND sent_to_card_network_at IS NULL`,
} as const;

export type RailQueue = keyof typeof railQueues;

/**
 * The oldest row of a rail's queue whose `settle_after` has passed, locked; replicas skip each
 * other's rows. The queue goes in as a literal so that the planner can use the partial index on
 * settle_after.
 */
export async function lockOldestDue<Row>(em: EntityManager, queue: RailQueue): Promise<Row | undefined> {
  return firstRow<Row>(
    em,
    `SELECT * FROM ${railQueues[queue]} AND settle_after <= now() ORDER BY settle_after LIMIT 1 FOR UPDATE SKIP LOCKED`,
  );
}
