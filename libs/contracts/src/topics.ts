/**
 * One declaration of every Kafka topic. `npm run topics:apply` (an operator's command, and the
 * migration Job's first step) makes the cluster match it; the apps only check at start that
 * their topics are there.
 */
export interface TopicSpec {
  readonly name: string;
  readonly partitions: number;
  /** Topic-level broker configuration, e.g. a short retention for sealed card data. */
  readonly config?: Readonly<Record<string, string>>;
}

/**
 * How many copies of every partition the cluster keeps, and how many must have a write before
 * it counts: a payment event survives one broker's loss, and a write waits for two copies.
 * A cluster of fewer brokers gets what it can hold (see `replicationOn`).
 */
export const topicReplication = { replicationFactor: 3, minInsyncReplicas: 2 } as const;

/**
 * The replication a cluster of `brokers` gives every topic: the declared one on three brokers
 * or more, one copy (and one in sync) on a single local broker, two copies with one in sync on two.
 */
export function replicationOn(brokers: number): { replicationFactor: number; minInsyncReplicas: number } {
  const replicationFactor = Math.max(1, Math.min(topicReplication.replicationFactor, brokers));
  const minInsyncReplicas = Math.min(topicReplication.minInsyncReplicas, Math.max(1, replicationFactor - 1));
  return { replicationFactor, minInsyncReplicas };
}

const minute = 60 * 1000;

/**
 * Sealed card data (PAN, CVV, PIN, PIN block, track 2) may stay on Kafka only as long as it
 * can still be used (PCI DSS 3.3.1: no sensitive authentication data after authorisation, even
 * encrypted). A segment is deleted only after it rolls, so the roll interval is short as well:
 * nothing stays longer than retention plus one segment.
 */
function sealedCardData(retentionMs: number, segmentMs: number) {
  return { 'retention.ms': String(retentionMs), 'segment.ms': String(segmentMs), 'cleanup.policy': 'delete' } as const;
}

export const Topics = {
  /** Partner-visible events (outlet.created, fundAccount.success, ...), keyed by business id. */
  partnerEvents: { name: 'partner.events.v1', partitions: 12 },
  /** Gateway → outlet-service requests; each names the replies partition its answer goes to. */
  outletCommands: { name: 'outlet.commands.v1', partitions: 6 },
  /**
   * Gateway → card-processor requests (charges and their verification steps), carrying sealed
   * card data and answers. A request is useless once the gateway stopped waiting: an hour.
   */
  cardCommands: { name: 'card.commands.v1', partitions: 6, config: sealedCardData(60 * minute, 10 * minute) },
  /** Gateway → webhook-dispatcher requests (deliveries, replays, endpoint settings). */
  webhookCommands: { name: 'webhook.commands.v1', partitions: 3 },
  /**
   * Answers to every request above. A requesting instance reads one partition of its own
   * choosing, named in each request; a reply is kept only as long as anyone could wait for it.
   */
  commandReplies: {
    name: 'command.replies.v1',
    partitions: 12,
    config: { 'retention.ms': String(60 * minute), 'segment.ms': String(10 * minute), 'cleanup.policy': 'delete' },
  },
  /** Internal business lifecycle events (partner provisioned, keys rotated), keyed by business id. */
  businessEvents: { name: 'business.events.v1', partitions: 3 },
  /**
   * POS submissions keyed by terminal serial number. Card fields travel sealed, and the topic
   * keeps them for six hours only: long enough to ride out a processor outage, no longer.
   */
  posTransactions: {
    name: 'pos.transactions.v1',
    partitions: 6,
    config: sealedCardData(6 * 60 * minute, 30 * minute),
  },
  /** outlet-service → gateway: a checkout's money is in the ledger, keyed by business id. */
  checkoutPayments: { name: 'checkout.payments.v1', partitions: 3 },
  /** card-processor → outlet-service: a checkout's card charge succeeded, keyed by business id. */
  cardCharges: { name: 'card.charges.v1', partitions: 6 },
  /** card-processor's approve/decline decisions on POS transactions, keyed by serial number. */
  posOutcomes: { name: 'pos.outcomes.v1', partitions: 6 },
  /** outlet-service → card-processor: refunds of card payments to send to the card network, keyed by business id. */
  cardRefunds: { name: 'card.refunds.v1', partitions: 3 },
  /** card-processor → outlet-service: how the card network answered each of them, keyed by business id. */
  cardRefundOutcomes: { name: 'card.refund-outcomes.v1', partitions: 3 },
} as const satisfies Record<string, TopicSpec>;

export type TopicKey = keyof typeof Topics;
export type TopicName = (typeof Topics)[TopicKey]['name'];

/**
 * Messages that can never succeed are parked here instead of being retried forever. A parked
 * message keeps its topic's configuration, so sealed card data expires there just as soon.
 */
export function deadLetterTopicOf(topic: TopicSpec): TopicSpec {
  return { name: `${topic.name}.dlq`, partitions: 1, ...(topic.config ? { config: topic.config } : {}) };
}

export const allTopics: readonly TopicSpec[] = Object.values(Topics).flatMap((topic) => [
  topic,
  deadLetterTopicOf(topic),
]);
