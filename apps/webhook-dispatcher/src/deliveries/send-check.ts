import type { DeliveryRow } from './deliveries.repository';

/** A claimed delivery and its endpoint as the database has them now, read just before sending. */
export interface DeliveryStanding {
  url: string | null;
  status: DeliveryRow['status'];
  leased_by: string | null;
  /** Whether the delivery's endpoint takes deliveries; null once an added endpoint was deleted. */
  endpoint: 'open' | 'closed' | null;
}

/**
 * What to do with a claimed delivery about to be sent. The claim may be seconds old and the
 * endpoint read through a cache, so an endpoint deleted, disabled or pointed elsewhere since
 * then would still be sent to; this decides on the database's word instead:
 * - `send`: nothing changed.
 * - `moved`: its endpoint has a new URL (the change retargeted the delivery); claim it again there.
 * - `closed`: its endpoint takes no deliveries now; hold it.
 * - `deleted`: its endpoint is gone; it fails.
 * - `lost`: it is no longer this instance's to send (its lease lapsed and another took it).
 */
export function sendCheck(
  row: DeliveryRow,
  standing: DeliveryStanding | undefined,
  claimant: string,
): 'send' | 'moved' | 'closed' | 'deleted' | 'lost' {
  if (!standing || standing.status !== 'pending' || standing.leased_by !== claimant) return 'lost';
  if (row.endpoint_id && standing.endpoint === null) return 'deleted';
  if (standing.url !== row.url) return 'moved';
  // A disabled endpoint holds events routed to it; a test or replay asked for by the partner is still sent.
  if (row.target === 'business' && standing.endpoint === 'closed') return 'closed';
  return 'send';
}
