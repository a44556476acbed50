import { newUlid } from '@payments/platform-crypto';
import { Message } from 'kafkajs';
import { DataSource } from 'typeorm';

export interface Submission {
  /** Keyed hash of (serial, sequence, amount, card): equal for a resubmission. */
  dedupeKey: string;
  serialNumber: string;
  /** The Kafka message for this submission, once it is accepted under `reference`. */
  message: (reference: string) => Message;
}

interface Pending {
  submission: Submission;
  resolve: (reference: string) => void;
  reject: (error: unknown) => void;
}

interface Claim {
  dedupe_key: string;
  reference: string;
  published_at: Date | null;
}

/**
 * One statement for a whole group: record each new dedupe key with a fresh reference (a key
 * last claimed over 24 hours ago is a new transaction), and return every key's claim. The
 * second half reads what the insert did not return: claims that already existed.
 */
const claimSql = `
  WITH claimed AS (
    INSERT INTO pos_ingest.submissions (dedupe_key, reference, serial_number)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
    ON CONFLICT (dedupe_key) DO UPDATE SET reference = EXCLUDED.reference, created_at = now(), published_at = NULL
      WHERE pos_ingest.submissions.created_at <= now() - interval '24 hours'
    RETURNING dedupe_key, reference, published_at
  )
  SELECT dedupe_key, reference, published_at FROM claimed
  UNION ALL
  SELECT dedupe_key, reference, published_at FROM pos_ingest.submissions
  WHERE dedupe_key = ANY($1::text[]) AND dedupe_key NOT IN (SELECT dedupe_key FROM claimed)`;

/**
 * Accepts submissions in groups (group commit). Every submission that arrived meanwhile
 * shares three steps:
 *
 * 1. Claim: one statement records each new dedupe key with a fresh reference and commits, so
 *    a transaction's reference exists before any message does.
 * 2. Publish the claims not yet on the broker, with acks=all, in one request; once the broker
 *    acknowledged it, each caller gets its reference.
 * 3. Mark them published, so a resubmission is answered without publishing again.
 *
 * Whatever fails (the broker, a lost acknowledgement, a crash between the steps), the claim
 * stays and the terminal's retry publishes the same transaction under the same reference,
 * which the processor applies once. That is also why no lock is needed: twins racing in two
 * instances may both publish one reference, and it is still applied once. Within an instance,
 * a twin waits for the group already handling its transaction instead of repeating the work.
 */
export class SubmissionBatcher {
  private queue: Pending[] = [];
  private claiming = 0;
  /** Keys a group of this instance is handling, each with its outcome: the reference or why not. */
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly publish: (messages: Message[]) => Promise<void>,
    private readonly maxBatch = 500,
    private readonly maxConcurrentClaims = 1,
  ) {}

  /** Resolves with the reference the submission is known by: its own, or its first twin's. */
  accept(submission: Submission): Promise<string> {
    return new Promise((resolve, reject) => {
      this.queue.push({ submission, resolve, reject });
      this.startGroups();
    });
  }

  /**
   * A group holds a claim slot only while it claims: what arrives meanwhile waits and becomes
   * the next group, so groups grow with the load while one group's publish overlaps the next
   * one's claim (publishes are merged and sent one request at a time by the publisher).
   */
  private startGroups(): void {
    while (this.claiming < this.maxConcurrentClaims && this.queue.length > 0) {
      const group = this.queue.splice(0, this.maxBatch);
      this.claiming += 1;
      let released = false;
      const releaseSlot = () => {
        if (released) return;
        released = true;
        this.claiming -= 1;
        this.startGroups();
      };
      void this.run(group, releaseSlot).finally(releaseSlot);
    }
  }

  private async run(group: Pending[], claimed: () => void): Promise<void> {
    // Twins within the group share the first one's answer.
    const byKey = new Map<string, Pending[]>();
    for (const pending of group) {
      const twins = byKey.get(pending.submission.dedupeKey);
      if (twins) twins.push(pending);
      else byKey.set(pending.submission.dedupeKey, [pending]);
    }
    const answerWith = (key: string, outcome: Promise<string>) =>
      outcome.then(
        (reference) => byKey.get(key)!.forEach((pending) => pending.resolve(reference)),
        (error: unknown) => byKey.get(key)!.forEach((pending) => pending.reject(error)),
      );

    // A twin of a transaction another group of this instance is handling shares its outcome,
    // decided here, before any claim, so it cannot act on a claim read before that group's mark.
    // Keys go to the database sorted: two groups wait for each other in one order, never a cycle.
    const ours = [...byKey.keys()].filter((key) => !this.inFlight.has(key)).sort();
    for (const key of byKey.keys()) if (!ours.includes(key)) void answerWith(key, this.inFlight.get(key)!);
    if (ours.length === 0) return;
    const outcomes = new Map(ours.map((key) => [key, settleLater<string>()]));
    for (const [key, outcome] of outcomes) {
      this.inFlight.set(key, outcome.promise);
      void answerWith(key, outcome.promise);
    }
    try {
      // The keys stay registered until the mark, so a twin arriving after the answer shares it.
      await this.markPublished(await this.claimAndPublish(ours.map((key) => byKey.get(key)![0].submission), outcomes, claimed));
    } catch (error) {
      // Not expected (each step settles its own failures), but no caller may be left waiting.
      for (const outcome of outcomes.values()) outcome.reject(error);
    } finally {
      for (const key of ours) this.inFlight.delete(key);
    }
  }

  /** Settles every outcome; resolves with the keys this group published. */
  private async claimAndPublish(submissions: Submission[], outcomes: Map<string, Settler<string>>, claimed: () => void): Promise<string[]> {
    let claims: Map<string, Claim>;
    try {
      claims = await this.claim(submissions);
    } catch (error) {
      for (const outcome of outcomes.values()) outcome.reject(error);
      return [];
    } finally {
      claimed();
    }
    const unpublished = submissions.filter((submission) => !claims.get(submission.dedupeKey)!.published_at);
    for (const submission of submissions) {
      if (!unpublished.includes(submission)) outcomes.get(submission.dedupeKey)!.resolve(claims.get(submission.dedupeKey)!.reference);
    }
    if (unpublished.length === 0) return [];
    const keys = unpublished.map((submission) => submission.dedupeKey);
    try {
      await this.publish(unpublished.map((submission) => submission.message(claims.get(submission.dedupeKey)!.reference)));
    } catch (brokerError) {
      for (const key of keys) outcomes.get(key)!.reject(brokerError);
      return [];
    }
    // Acknowledged by the broker: the transaction is accepted, whatever happens to the mark.
    for (const key of keys) outcomes.get(key)!.resolve(claims.get(key)!.reference);
    return keys;
  }

  /** Best effort: left unmarked, a resubmission publishes the same reference again, applied once. */
  private async markPublished(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.dataSource
      .query(`UPDATE pos_ingest.submissions SET published_at = now() WHERE dedupe_key = ANY($1::text[]) AND published_at IS NULL`, [keys])
      .catch(() => undefined);
  }

  /** Every key's claim, new or existing, after one statement (two if a concurrent claim raced us). */
  private async claim(submissions: Submission[]): Promise<Map<string, Claim>> {
    const keys = submissions.map((submission) => submission.dedupeKey);
    const rows = (await this.dataSource.query(claimSql, [keys, keys.map(() => newUlid()), submissions.map((submission) => submission.serialNumber)])) as Claim[];
    const claims = new Map(rows.map((row) => [row.dedupe_key, row]));
    // A claim committed by another instance after this statement began is not in its snapshot.
    const missing = keys.filter((key) => !claims.has(key));
    if (missing.length > 0) {
      const raced = (await this.dataSource.query(`SELECT dedupe_key, reference, published_at FROM pos_ingest.submissions WHERE dedupe_key = ANY($1::text[])`, [
        missing,
      ])) as Claim[];
      for (const row of raced) claims.set(row.dedupe_key, row);
    }
    if (claims.size !== keys.length) throw new Error('a claim could not be read back');
    return claims;
  }
}

interface Settler<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A promise settled from outside (Promise.withResolvers, which Node 20 lacks). */
function settleLater<T>(): Settler<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}
