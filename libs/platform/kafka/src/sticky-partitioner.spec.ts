import { PartitionerArgs, Partitioners, PartitionMetadata } from 'kafkajs';

import { StickyKeylessPartitioner } from './sticky-partitioner';

const partitions = (leaders: number[]): PartitionMetadata[] =>
  leaders.map((leader, partitionId) => ({
    partitionId,
    leader,
    partitionErrorCode: 0,
    replicas: [leader],
    isr: [leader],
  }));

/** kafkajs places one request's messages for a topic in one synchronous pass; so does this. */
const pass = (
  partition: (args: PartitionerArgs) => number,
  topic: string,
  metadata: PartitionMetadata[],
  count: number,
) => Array.from({ length: count }, () => partition({ topic, partitionMetadata: metadata, message: { value: 'x' } }));

const nextMicrotask = () => Promise.resolve();

describe('StickyKeylessPartitioner', () => {
  const six = partitions([1, 1, 1, 1, 1, 1]);

  it("puts one pass's keyless messages on one partition and moves to the next partition for the next pass", async () => {
    const partition = StickyKeylessPartitioner();
    const chosen: number[] = [];
    for (let request = 0; request < 12; request++) {
      const placed = pass(partition, 'commands', six, 16);
      expect(new Set(placed).size).toBe(1);
      chosen.push(placed[0]);
      await nextMicrotask();
    }
    // Round the partitions in turn: every partition twice in twelve requests.
    for (let index = 1; index < chosen.length; index++) expect(chosen[index]).toBe((chosen[index - 1] + 1) % 6);
  });

  it('chooses for each topic of a pass on its own', () => {
    const partition = StickyKeylessPartitioner();
    const first = pass(partition, 'commands', six, 3);
    const second = pass(partition, 'other.commands', partitions([1, 1, 1]), 3);
    expect(new Set(first).size).toBe(1);
    expect(new Set(second).size).toBe(1);
    expect(second[0]).toBeLessThan(3);
  });

  it('skips partitions without a leader', async () => {
    const partition = StickyKeylessPartitioner();
    const someDown = partitions([1, -1, 1, -1, 1, -1]);
    for (let request = 0; request < 6; request++) {
      expect([0, 2, 4]).toContain(pass(partition, 'commands', someDown, 1)[0]);
      await nextMicrotask();
    }
  });

  it('places keyed messages by their key, and named partitions as named, as the default partitioner does', () => {
    const sticky = StickyKeylessPartitioner();
    const placedByDefault = Partitioners.DefaultPartitioner();
    for (const key of ['business-1', 'business-2', 'business-3', 'business-4']) {
      const args = { topic: 'events', partitionMetadata: six, message: { key, value: 'x' } };
      expect(sticky(args)).toBe(placedByDefault(args));
    }
    expect(sticky({ topic: 'replies', partitionMetadata: six, message: { partition: 4, value: 'x' } })).toBe(4);
  });
});
