import { Injectable } from '@nestjs/common';
import { requestHash } from '@payments/platform-crypto';
import { singleRow } from '@payments/platform-database';
import { apiError } from '@payments/platform-envelope';
import { ensureRequesterWaiting } from '@payments/platform-kafka';
import { EntityManager } from 'typeorm';

export type Claim<T> = { first: true } | { first: false; result: T };

/**
 * Where a command's reference comes from. A partner chooses `transfer` references and
 * Idempotency-Keys; the others are made by the platform (a rail session, a card charge, a
 * POS transaction, a gateway request), so no partner reference can collide with them.
 */
export type CommandNamespace =
  'transfer' | 'idempotency-key' | 'command' | 'session' | 'card-charge' | 'qr-payment' | 'pos';

export interface CommandKey {
  namespace: CommandNamespace;
  reference: string;
}

/**
 * Idempotency of commands that move money or create something. The first request with a key
 * claims it inside the command's transaction; a concurrent duplicate waits on the primary key,
 * then finds the committed answer and returns it. The same key with other content is refused.
 * A command that fails rolls back its claim, so the key stays free for a corrected retry; so
 * does a request handled after its requester stopped waiting (ensureRequesterWaiting).
 */
@Injectable()
export class MoneyCommandsRepository {
  async claim<T>(
    em: EntityManager,
    businessId: string,
    key: CommandKey,
    kind: string,
    request: object,
  ): Promise<Claim<T>> {
    const hash = requestHash(kind, request);
    const claimed: unknown[] = await em.query(
      `INSERT INTO outlets.money_commands (business_id, namespace, reference, kind, request_hash) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING reference`,
      [businessId, key.namespace, key.reference, kind, hash],
    );
    if (claimed.length === 1) {
      // Holding the key now, after any twin finished: past the requester's deadline the caller
      // has been told 503 and may have retried and been refused, so this attempt must not book.
      ensureRequesterWaiting();
      return { first: true };
    }
    const existing = await singleRow<{ request_hash: string; result: T | null }>(
      em,
      `SELECT request_hash, result FROM outlets.money_commands WHERE business_id = $1 AND namespace = $2 AND reference = $3`,
      [businessId, key.namespace, key.reference],
    );
    if (existing.request_hash !== hash || existing.result === null) {
      throw key.namespace === 'idempotency-key'
        ? apiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request')
        : apiError('REFERENCE_CONFLICT', `Reference ${key.reference} was already used for a different request`);
    }
    return { first: false, result: existing.result };
  }

  async complete<T>(em: EntityManager, businessId: string, key: CommandKey, result: T): Promise<T> {
    await em.query(
      `UPDATE outlets.money_commands SET result = $4 WHERE business_id = $1 AND namespace = $2 AND reference = $3`,
      [businessId, key.namespace, key.reference, JSON.stringify(result)],
    );
    return result;
  }

  /** Runs `work` once per key: a repeat returns the first result without running it again. */
  async once<T>(
    em: EntityManager,
    businessId: string,
    key: CommandKey,
    kind: string,
    request: object,
    work: () => Promise<T>,
  ): Promise<T> {
    const claim = await this.claim<T>(em, businessId, key, kind, request);
    if (!claim.first) return claim.result;
    return this.complete(em, businessId, key, await work());
  }
}
