import { createHash } from 'node:crypto';

/**
 * The fingerprint an idempotency record keeps of its request: a retry must carry the same
 * content as the first request, whatever the order of its keys. Optional fields sent as null
 * mean the same as absent ones, at every depth; arrays keep their order. A flat request hashes
 * as the sorted list of its present fields, as the ledger's command records always have.
 */
export function requestHash(kind: string, request: object): string {
  return createHash('sha256')
    .update(`${kind}\n${JSON.stringify(canonical(request))}`)
    .digest('hex');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.entries(value)
    .filter(([, field]) => field !== undefined && field !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, field]) => [key, canonical(field)]);
}
