import { Injectable } from '@nestjs/common';
import { apiError } from '@payments/platform-envelope';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';

export type Claim<T> = { first: true } | { first: false; result: T };

/**
 * Idempotency of money commands. The first request with a reference claims it inside the
 * command's transaction; a concurrent duplicate waits on the primary key, then finds the
 * committed answer and returns it. The same reference with other content is refused. A
 * command that fails rolls back its claim, so the reference stays free for a corrected retry.
 */
@Injectable()
export class MoneyCommands {
  async claim<T>(em: EntityManager, businessId: string, reference: string, kind: string, request: object): Promise<Claim<T>> {
    const hash = requestHash(kind, request);
    const claimed: unknown[] = await em.query(
      `INSERT INTO outlets.money_commands (business_id, reference, kind, request_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING reference`,
      [businessId, reference, kind, hash],
    );
    if (claimed.length === 1) return { first: true };
    const [existing] = (await em.query(
      `SELECT request_hash, result FROM outlets.money_commands WHERE business_id = $1 AND reference = $2`,
      [businessId, reference],
    )) as { request_hash: string; result: T | null }[];
    if (existing.request_hash !== hash || existing.result === null) {
      throw apiError('REFERENCE_CONFLICT', `Reference ${reference} was already used for a different request`);
    }
    return { first: false, result: existing.result };
  }

  async complete<T>(em: EntityManager, businessId: string, reference: string, result: T): Promise<T> {
    await em.query(`UPDATE outlets.money_commands SET result = $3 WHERE business_id = $1 AND reference = $2`, [
      businessId,
      reference,
      JSON.stringify(result),
    ]);
    return result;
  }
}

/** The same request, whatever the key order or absent optional fields, hashes the same. */
export function requestHash(kind: string, request: object): string {
  const canonical = JSON.stringify(
    Object.entries(request)
      .filter(([, value]) => value !== undefined && value !== null)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return createHash('sha256').update(`${kind}\n${canonical}`).digest('hex');
}
