import { allTopics } from '@payments/contracts';
import { eventually, PrivateCluster } from '@payments/testing';
import { PartitionMetadata } from 'kafkajs';

const nodes = [1, 2, 3];

/** What the chaos run does to a cluster of three, and how it tells the cluster has healed. */
export class ClusterFaults {
  constructor(private readonly cluster: PrivateCluster) {}

  /** Each broker in turn stopped with SIGTERM and started again, the next only once every partition is back in sync. */
  async restartInTurn(): Promise<void> {
    for (const node of nodes) {
      await this.cluster.stopNode(node);
      await this.cluster.startNode(node);
      await this.untilInSync();
    }
  }

  /** The broker that leads the most partitions, killed with SIGKILL and started again `downMs` later. */
  async killBusiestLeader(downMs: number): Promise<number> {
    const leaders = new Map<number, number>();
    for (const partition of await this.partitions()) {
      leaders.set(partition.leader, (leaders.get(partition.leader) ?? 0) + 1);
    }
    const [busiest] = [...leaders].sort(([, a], [, b]) => b - a)[0];
    await this.cluster.stopNode(busiest, { abruptly: true });
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.cluster.startNode(busiest);
    await this.untilInSync();
    return busiest;
  }

  /** Every replica of every platform partition, and of the consumer groups' offsets, in sync again. */
  async untilInSync(): Promise<void> {
    await eventually(async () => {
      const partitions = await this.partitions().catch(() => []);
      return partitions.length > 0 &&
        partitions.every((partition) => partition.isr.length === partition.replicas.length)
        ? true
        : undefined;
    }, 180_000);
  }

  private async partitions(): Promise<PartitionMetadata[]> {
    const admin = this.cluster.client('chaos-faults').admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({
        topics: [...allTopics.map((topic) => topic.name), '__consumer_offsets'],
      });
      return topics.flatMap((topic) => topic.partitions);
    } finally {
      await admin.disconnect();
    }
  }
}
