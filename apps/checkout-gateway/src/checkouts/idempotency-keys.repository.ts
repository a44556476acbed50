import { Injectable } from '@nestjs/common';
import { singleRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/** What a key already holds: the request's hash, and the answer once the first request finished. */
export interface ClaimedKey<Response> {
  request_hash: string;
  response: Response | null;
}

/** gateway.idempotency_keys: one row per business and Idempotency-Key, written inside the create's transaction. */
@Injectable()
export class IdempotencyKeysRepository {
  /** Null when this request claimed the key; otherwise what the earlier request left. */
  async claim<Response>(
    em: EntityManager,
    businessId: string,
    key: string,
    requestHash: string,
  ): Promise<ClaimedKey<Response> | null> {
    const claimed: unknown[] = await em.query(
      `INSERT INTO gateway.idempotency_keys (business_id, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING key`,
      [businessId, key, requestHash],
    );
    if (claimed.length === 1) return null;
    // The insert met the key's row, so it is there: keys are never deleted.
    return singleRow<ClaimedKey<Response>>(
      em,
      `SELECT request_hash, response FROM gateway.idempotency_keys WHERE business_id = $1 AND key = $2`,
      [businessId, key],
    );
  }

  async saveResponse(em: EntityManager, businessId: string, key: string, response: unknown): Promise<void> {
    await em.query(`UPDATE gateway.idempotency_keys SET response = $3 WHERE business_id = $1 AND key = $2`, [
      businessId,
      key,
      JSON.stringify(response),
    ]);
  }
}
