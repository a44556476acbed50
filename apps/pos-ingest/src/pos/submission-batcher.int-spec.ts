import { Message } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { PosIngestFixture } from '../testing/pos-ingest.fixture';
import { Submission, SubmissionBatcher } from './submission-batcher';

jest.setTimeout(60_000);

/** A publish the test releases by hand, recording what it was given. */
class HeldPublish {
  readonly calls: Message[][] = [];
  private release: (() => void)[] = [];
  private fail: ((error: Error) => void)[] = [];

  readonly publish = (messages: Message[]) => {
    this.calls.push(messages);
    return new Promise<void>((resolve, reject) => {
      this.release.push(resolve);
      this.fail.push(reject);
    });
  };

  async untilCalled(times: number): Promise<void> {
    const deadline = Date.now() + 5000;
    while (this.calls.length < times) {
      if (Date.now() > deadline) throw new Error(`publish called ${this.calls.length} times, expected ${times}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  acknowledge(): void {
    this.release.shift()!();
    this.fail.shift();
  }

  refuse(): void {
    this.release.shift();
    this.fail.shift()!(new Error('broker unavailable'));
  }
}

describe('SubmissionBatcher', () => {
  const fixture = new PosIngestFixture();
  beforeAll(() => fixture.start());
  afterAll(() => fixture.close());

  const submission = (dedupeKey: string): Submission => ({
    dedupeKey,
    serialNumber: 'SN-BATCHER',
    message: (reference) => ({ key: 'SN-BATCHER', value: reference }),
  });
  const claim = async (dedupeKey: string) =>
    ((await fixture.dataSource.query(`SELECT reference, published_at FROM pos_ingest.submissions WHERE dedupe_key = $1`, [dedupeKey])) as {
      reference: string;
      published_at: Date | null;
    }[])[0];

  /** A submission whose publish is held, and its twin, sent once the publish is under way. */
  async function twinsDuringPublish() {
    const held = new HeldPublish();
    const batcher = new SubmissionBatcher(fixture.dataSource, held.publish);
    const key = randomUUID();
    const first = batcher.accept(submission(key));
    await held.untilCalled(1);
    const twin = batcher.accept(submission(key));
    // Time for the twin's claim to come back and find the publish under way.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { held, batcher, key, first, twin };
  }

  it('lets a twin wait for the group already handling its transaction instead of repeating it', async () => {
    const { held, first, twin } = await twinsDuringPublish();
    held.acknowledge();
    const [reference, twinReference] = await Promise.all([first, twin]);
    expect(twinReference).toBe(reference);
    expect(held.calls.map((messages) => messages.map((message) => message.value))).toEqual([[reference]]);
  });

  it('answers only after the broker acknowledged, then marks the claim published', async () => {
    const held = new HeldPublish();
    const batcher = new SubmissionBatcher(fixture.dataSource, held.publish);
    const key = randomUUID();
    let answered = false;
    const accepted = batcher.accept(submission(key)).then((reference) => ((answered = true), reference));
    await held.untilCalled(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    expect((await claim(key)).published_at).toBeNull();
    held.acknowledge();
    const reference = await accepted;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await claim(key)).toEqual({ reference, published_at: expect.any(Date) });
    // Published and marked: a resubmission is answered without another message.
    expect(await batcher.accept(submission(key))).toBe(reference);
    expect(held.calls).toHaveLength(1);
  });

  it('claims and publishes the next group while an earlier one still waits for the broker', async () => {
    const held = new HeldPublish();
    const batcher = new SubmissionBatcher(fixture.dataSource, held.publish);
    const [firstKey, laterKey] = [randomUUID(), randomUUID()];
    const first = batcher.accept(submission(firstKey));
    await held.untilCalled(1);
    const later = batcher.accept(submission(laterKey));
    await held.untilCalled(2);
    expect((await claim(laterKey)).published_at).toBeNull();
    held.acknowledge();
    held.acknowledge();
    const references = await Promise.all([first, later]);
    expect(held.calls.map((messages) => messages.map((message) => message.value))).toEqual(references.map((reference) => [reference]));
  });

  it('fails the caller and its waiting twin when the broker refuses, and keeps the claim for the retry', async () => {
    const { held, batcher, key, first, twin } = await twinsDuringPublish();
    held.refuse();
    await expect(first).rejects.toThrow('broker unavailable');
    await expect(twin).rejects.toThrow('broker unavailable');
    const kept = await claim(key);
    expect(kept.published_at).toBeNull();

    const retry = batcher.accept(submission(key));
    await held.untilCalled(2);
    held.acknowledge();
    expect(await retry).toBe(kept.reference);
    expect(held.calls[1].map((message) => message.value)).toEqual([kept.reference]);
  });

  it('answers with the claim of another instance that committed while this one waited for it', async () => {
    const batcher = new SubmissionBatcher(fixture.dataSource, async () => undefined);
    const [key, othersReference] = [randomUUID(), `OTHER-${randomUUID()}`];
    const other = fixture.dataSource.createQueryRunner();
    await other.startTransaction();
    try {
      await other.query(`INSERT INTO pos_ingest.submissions (dedupe_key, reference, serial_number) VALUES ($1, $2, 'SN-BATCHER')`, [key, othersReference]);
      // Our claim waits on the uncommitted row; once it commits, the row is not in our snapshot.
      const accepted = batcher.accept(submission(key));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await other.commitTransaction();
      expect(await accepted).toBe(othersReference);
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
    }
  });

  it('treats a key last claimed over 24 hours ago as a new transaction', async () => {
    const batcher = new SubmissionBatcher(fixture.dataSource, async () => undefined);
    const key = randomUUID();
    const first = await batcher.accept(submission(key));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await fixture.dataSource.query(`UPDATE pos_ingest.submissions SET created_at = now() - interval '25 hours' WHERE dedupe_key = $1`, [key]);
    const later = await batcher.accept(submission(key));
    expect(later).not.toBe(first);
    expect((await claim(key)).reference).toBe(later);
  });
});
