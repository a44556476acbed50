/** One definition of every Kafka topic; the platform creates them explicitly at start. */
export interface TopicSpec {
  readonly name: string;
  readonly partitions: number;
  /** Topic-level broker configuration, e.g. a short retention for sealed card data. */
  readonly config?: Readonly<Record<string, string>>;
}

export const Topics = {
  /** Partner-visible events (outlet.created, fundAccount.success, ...), keyed by business id. */
  partnerEvents: { name: 'partner.events.v1', partitions: 12 },
  /** Gateway → outlet-service requests; Nest's Kafka transport answers on `<name>.reply`. */
  outletCommands: { name: 'outlet.commands.v1', partitions: 6 },
  outletCommandReplies: { name: 'outlet.commands.v1.reply', partitions: 6 },
  /** Gateway → card-processor requests (charges and their verification steps). */
  cardCommands: { name: 'card.commands.v1', partitions: 6 },
  cardCommandReplies: { name: 'card.commands.v1.reply', partitions: 6 },
  /** Gateway → webhook-dispatcher requests (deliveries, replays, endpoint settings). */
  webhookCommands: { name: 'webhook.commands.v1', partitions: 3 },
  webhookCommandReplies: { name: 'webhook.commands.v1.reply', partitions: 3 },
  /** Internal business lifecycle events (partner provisioned, keys rotated), keyed by business id. */
  businessEvents: { name: 'business.events.v1', partitions: 3 },
  /**
   * POS submissions keyed by terminal serial number. Card fields travel sealed, and the topic
   * keeps them for six hours only: long enough to ride out a processor outage, no longer.
   */
  posTransactions: {
    name: 'pos.transactions.v1',
    partitions: 6,
    config: { 'retention.ms': String(6 * 60 * 60 * 1000), 'cleanup.policy': 'delete' },
  },
  /** outlet-service → gateway: a checkout's money is in the ledger, keyed by business id. */
  checkoutPayments: { name: 'checkout.payments.v1', partitions: 3 },
  /** card-processor → outlet-service: a checkout's card charge succeeded, keyed by business id. */
  cardCharges: { name: 'card.charges.v1', partitions: 6 },
  /** card-processor's approve/decline decisions on POS transactions, keyed by serial number. */
  posOutcomes: { name: 'pos.outcomes.v1', partitions: 6 },
} as const satisfies Record<string, TopicSpec>;

export type TopicKey = keyof typeof Topics;
export type TopicName = (typeof Topics)[TopicKey]['name'];

/** Messages that can never succeed are parked here instead of being retried forever. */
export function deadLetterTopicOf(topic: TopicSpec): TopicSpec {
  return { name: `${topic.name}.dlq`, partitions: 1 };
}

export const allTopics: readonly TopicSpec[] = Object.values(Topics).flatMap((topic) => [topic, deadLetterTopicOf(topic)]);
