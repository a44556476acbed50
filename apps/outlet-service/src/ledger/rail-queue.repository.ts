import { firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/** A rail's queue, spelled out in the code: it goes into the statement as it is. */
type RailQueue = `outlets.${'payouts' | 'refunds'} WHERE status = '${'PROCESSING' | 'PENDING'}'`;

/**
 * The oldest row of a rail's queue whose `settle_after` has passed, locked; replicas skip each
 * other's rows. `queue` is a table and the status of its waiting rows, written as a literal so
 * that the planner can use the partial index on settle_after.
 */
export async function lockOldestDue<Row>(em: EntityManager, queue: RailQueue): Promise<Row | undefined> {
  return firstRow<Row>(
    em,
    `SELECT * FROM ${queue} AND settle_after <= now() ORDER BY settle_after LIMIT 1 FOR UPDATE SKIP LOCKED`,
  );
}
