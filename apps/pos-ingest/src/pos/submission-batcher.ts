import { Message } from 'kafkajs';
import { ulid } from 'ulid';
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

/**
 * Accepts submissions in groups (group commit), in two steps shared by every submission that
 * arrived meanwhile:
 *
 * 1. Claim: one statement records each new dedupe key with a fresh reference and commits, so
 *    a transaction's reference exists before any message does.
 * 2. Publish: one transaction locks the group's claims, publishes those not yet on the broker
 *    with acks=all in one request, marks them and commits; then each caller gets its reference.
 *
 * Whatever fails (the broker, a lost acknowledgement, a crash between the steps), the claim
 * stays and the terminal's retry publishes the same transaction under the same reference,
 * which the processor applies once. A twin in another group waits on the lock and finds its
 * claim published, so a message goes out once.
 */
export class SubmissionBatcher {
  private queue: Pending[] = [];
  private running = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publish: (messages: Message[]) => Promise<void>,
    private readonly maxBatch = 500,
    private readonly maxConcurrentBatches = 2,
  ) {}

  /** Resolves with the reference the submission is known by: its own, or its first twin's. */
  accept(submission: Submission): Promise<string> {
    return new Promise((resolve, reject) => {
      this.queue.push({ submission, resolve, reject });
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.running < this.maxConcurrentBatches && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.running += 1;
      void this.run(batch).finally(() => {
        this.running -= 1;
        this.startBatches();
      });
    }
  }

  private async run(batch: Pending[]): Promise<void> {
    // Twins within the group share the first one's answer. Keys go to the database sorted, so
    // two concurrent groups lock rows in the same order and never deadlock.
    const byKey = new Map<string, Pending[]>();
    for (const pending of batch) {
      const twins = byKey.get(pending.submission.dedupeKey);
      if (twins) twins.push(pending);
      else byKey.set(pending.submission.dedupeKey, [pending]);
    }
    const keys = [...byKey.keys()].sort();
    const first = (key: string) => byKey.get(key)![0].submission;
    let outcome: { references: Map<string, string>; unpublished: Set<string>; brokerError?: unknown };
    try {
      // A key last claimed over 24 hours ago is a new transaction; a recent one keeps its claim.
      await this.dataSource.query(
        `INSERT INTO pos_ingest.submissions (dedupe_key, reference, serial_number)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
         ON CONFLICT (dedupe_key) DO UPDATE SET reference = EXCLUDED.reference, created_at = now(), published_at = NULL
           WHERE pos_ingest.submissions.created_at <= now() - interval '24 hours'`,
        [keys, keys.map(() => ulid()), keys.map((key) => first(key).serialNumber)],
      );
      outcome = await this.dataSource.transaction(async (em) => {
        const claims = (await em.query(
          `SELECT dedupe_key, reference, published_at FROM pos_ingest.submissions WHERE dedupe_key = ANY($1::text[]) ORDER BY dedupe_key FOR UPDATE`,
          [keys],
        )) as { dedupe_key: string; reference: string; published_at: Date | null }[];
        const references = new Map(claims.map((claim) => [claim.dedupe_key, claim.reference]));
        const unpublished = new Set(claims.filter((claim) => !claim.published_at).map((claim) => claim.dedupe_key));
        if (unpublished.size === 0) return { references, unpublished };
        try {
          await this.publish([...unpublished].map((key) => first(key).message(references.get(key)!)));
        } catch (brokerError) {
          return { references, unpublished, brokerError };
        }
        await em.query(`UPDATE pos_ingest.submissions SET published_at = now() WHERE dedupe_key = ANY($1::text[])`, [[...unpublished]]);
        return { references, unpublished };
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const [key, waiting] of byKey) {
      for (const pending of waiting) {
        if (outcome.brokerError !== undefined && outcome.unpublished.has(key)) pending.reject(outcome.brokerError);
        else pending.resolve(outcome.references.get(key)!);
      }
    }
  }
}
