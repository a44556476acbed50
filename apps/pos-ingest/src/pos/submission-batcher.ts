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
 * submission that arrived meanwhile, the new ones are published together with acks=all, and
 * only then does the transaction commit and each caller get its reference. A failure rolls the
 * whole group back, so nothing is half-accepted; a resubmission gets the first reference.
 *
 * Each request still waits for the broker and the database, but the cost of those round trips
 * is shared by the group instead of being paid, and holding a connection, per request.
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
    try {
      const references = await this.dataSource.transaction(async (em) => {
        // A key last seen over 24 hours ago is a new transaction; a recent one keeps its row.
        const claimed = (await em.query(
          `INSERT INTO pos_ingest.submissions (dedupe_key, reference, serial_number)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
           ON CONFLICT (dedupe_key) DO UPDATE SET reference = EXCLUDED.reference, created_at = now()
             WHERE pos_ingest.submissions.created_at <= now() - interval '24 hours'
           RETURNING dedupe_key, reference`,
          [keys, keys.map(() => ulid()), keys.map((key) => first(key).serialNumber)],
        )) as { dedupe_key: string; reference: string }[];
        const answers = new Map(claimed.map((row) => [row.dedupe_key, row.reference]));
        const resubmitted = keys.filter((key) => !answers.has(key));
        if (resubmitted.length > 0) {
          const earlier = (await em.query(`SELECT dedupe_key, reference FROM pos_ingest.submissions WHERE dedupe_key = ANY($1::text[])`, [
            resubmitted,
          ])) as { dedupe_key: string; reference: string }[];
          for (const row of earlier) answers.set(row.dedupe_key, row.reference);
        }
        if (claimed.length > 0) await this.publish(claimed.map((row) => first(row.dedupe_key).message(row.reference)));
        return answers;
      });
      for (const [key, waiting] of byKey) for (const pending of waiting) pending.resolve(references.get(key)!);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}
