import { randomInt } from 'node:crypto';

import { ICustomPartitioner, PartitionerArgs, Partitioners } from 'kafkajs';

/**
 * Sticky partitioning for messages without a key (Kafka's KIP-480, which kafkajs lacks).
 * kafkajs spreads keyless messages round-robin one message at a time, so a batch of sixteen
 * commands became six partition batches in one produce request: six log appends on the broker,
 * six batches to fetch and hand over on the consumer's side. Here every keyless message of one
 * produce request goes to one partition, and the next request takes the next partition, so the
 * load still spreads over all of them. Keyed messages, and those that name their partition,
 * are placed as kafkajs's default partitioner places them.
 *
 * kafkajs calls the partitioner for all of a topic's messages of one request in a single
 * synchronous pass; the choice lasts until that pass ends (the next microtask).
 */
export const StickyKeylessPartitioner: ICustomPartitioner = () => {
  const placed = Partitioners.DefaultPartitioner();
  const turns = new Map<string, number>();
  let chosen: Map<string, number> | undefined;

  return (args: PartitionerArgs) => {
    const { topic, partitionMetadata, message } = args;
    if (message.partition != null || message.key != null) return placed(args);
    if (!chosen) {
      const pass = new Map<string, number>();
      chosen = pass;
      queueMicrotask(() => {
        if (chosen === pass) chosen = undefined;
      });
    }
    let partition = chosen.get(topic);
    if (partition === undefined) {
      const available = partitionMetadata.filter((candidate) => candidate.leader >= 0);
      if (available.length === 0) return placed(args);
      const turn = ((turns.get(topic) ?? randomInt(available.length)) + 1) % available.length;
      turns.set(topic, turn);
      partition = available[turn].partitionId;
      chosen.set(topic, partition);
    }
    return partition;
  };
};
