import { firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/**
 * The rows waiting for the rail in each of its queues: a table and the status of its waiting
 * rows, spelled out so that they go into a statement as they are.
 */
export const railQueues = {
  payouts: `outlets.payouts WHERE status = 'PROCESSING'`,
  refunds: `outlets.refunds WHERE status = 'PENDING'`,
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
