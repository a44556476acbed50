import { deadLetterTopicOf, TopicKey, Topics, TopicSpec } from './topics';

/** What one app does with Kafka: the topics it reads (in groups named `<app>.…`) and those it writes. */
export interface TopicUsage {
  readonly consumes: readonly TopicKey[];
  readonly produces: readonly TopicKey[];
}

/**
 * Each app's topics, declared beside the topics themselves: its Kafka principal is granted
 * exactly these (see kafkaAclsOf), and at start it checks only these are there. An app also
 * parks what it cannot apply on the `.dlq` of a topic it consumes.
 */
export const topicUsage = {
  'checkout-gateway': {
    consumes: ['partnerEvents', 'checkoutPayments', 'commandReplies'],
    // command.replies.v1 too: an instance sees a marker of its own come back before its first request.
    produces: [
      'outletCommands',
      'cardCommands',
      'webhookCommands',
      'commandReplies',
      'businessEvents',
      'partnerEvents',
    ],
  },
  'card-processor': {
    consumes: ['cardCommands', 'posTransactions', 'cardRefunds'],
    produces: ['commandReplies', 'cardCharges', 'posOutcomes', 'cardRefundOutcomes'],
  },
  'pos-ingest': { consumes: ['businessEvents'], produces: ['posTransactions'] },
  'outlet-service': {
    consumes: ['outletCommands', 'businessEvents', 'cardCharges', 'posOutcomes', 'cardRefundOutcomes'],
    produces: ['commandReplies', 'businessEvents', 'checkoutPayments', 'partnerEvents', 'cardRefunds'],
  },
  'webhook-dispatcher': {
    consumes: ['webhookCommands', 'partnerEvents', 'businessEvents'],
    produces: ['commandReplies'],
  },
} as const satisfies Record<string, TopicUsage>;

export type KafkaApp = keyof typeof topicUsage;

export function isKafkaApp(name: string): name is KafkaApp {
  return Object.hasOwn(topicUsage, name);
}

/** Every topic an app touches: what it consumes and produces, and the dead-letter topics of what it consumes. */
export function topicsOf(app: KafkaApp): TopicSpec[] {
  const { consumes, produces } = topicUsage[app] as TopicUsage;
  const used = [...new Set<TopicKey>([...consumes, ...produces])].map((key) => Topics[key] as TopicSpec);
  return [...used, ...consumes.map((key) => deadLetterTopicOf(Topics[key]))];
}
