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
 * Accepts submissions in groups (group commit): one transaction claims the dedupe keys of every
 * submission that arrived meanwhile, the messages not yet on the broker are published together
 * with acks=all and marked, and only then does the transaction commit and each caller get its
 * reference. Each request still waits for the broker and the database, but the round trips are
 * shared by the group instead of being paid, and holding a connection, per request.
 *
 * When the broker fails, the claims commit unmarked and the callers get an error: nothing is
 * processed, and the terminal's retry finds the claim and publishes the same transaction under
 * the same reference. So a message that reached the broker although the send failed (a lost
 * acknowledgement, a partly failed request) can never come back as a second transaction.
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
      outcome = await this.dataSource.transaction(async (em) => {
        // A key last claimed over 24 hours ago is a new transaction; a recent one keeps its row,
        // locked by this statement until the commit, so its twin in another group waits. New
        // claims are written as published: the common case then needs no second statement.
        const claimed = (await em.query(
          `INSERT INTO pos_ingest.submissions (dedupe_key, reference, serial_number, published_at)
           SELECT *, now() FROM unnest($1::text[], $2::text[], $3::text[])
           ON CONFLICT (dedupe_key) DO UPDATE SET reference = EXCLUDED.reference, created_at = now(), published_at = now()
             WHERE pos_ingest.submissions.created_at <= now() - interval '24 hours'
           RETURNING dedupe_key, reference`,
          [keys, keys.map(() => ulid()), keys.map((key) => first(key).serialNumber)],
        )) as { dedupe_key: string; reference: string }[];
        const references = new Map(claimed.map((row) => [row.dedupe_key, row.reference]));
        const newKeys = [...references.keys()];
        // Resubmissions whose first send failed: published now, under their first reference.
        const retried: string[] = [];
        const resubmitted = keys.filter((key) => !references.has(key));
        if (resubmitted.length > 0) {
          const earlier = (await em.query(`SELECT dedupe_key, reference, published_at FROM pos_ingest.submissions WHERE dedupe_key = ANY($1::text[])`, [
            resubmitted,
          ])) as { dedupe_key: string; reference: string; published_at: Date | null }[];
          for (const row of earlier) {
            references.set(row.dedupe_key, row.reference);
            if (!row.published_at) retried.push(row.dedupe_key);
          }
        }
        const unpublished = new Set([...newKeys, ...retried]);
        if (unpublished.size === 0) return { references, unpublished };
        try {
          await this.publish([...unpublished].map((key) => first(key).message(references.get(key)!)));
        } catch (brokerError) {
          await em.query(`UPDATE pos_ingest.submissions SET published_at = NULL WHERE dedupe_key = ANY($1::text[])`, [newKeys]);
          return { references, unpublished, brokerError };
        }
        if (retried.length > 0) await em.query(`UPDATE pos_ingest.submissions SET published_at = now() WHERE dedupe_key = ANY($1::text[])`, [retried]);
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
