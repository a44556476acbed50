import type { ListDeliveriesQuery } from '../http/webhooks/webhooks.dto';

/** Requests the gateway sends to webhook-dispatcher on Topics.webhookCommands (request/reply). */
export type WebhookCommand =
  | { type: 'getEndpoint'; businessId: string }
  | { type: 'setEndpoint'; businessId: string; url: string }
  | { type: 'listDeliveries'; businessId: string; query: ListDeliveriesQuery }
  | { type: 'getDelivery'; businessId: string; deliveryId: string }
  | { type: 'replayDelivery'; businessId: string; deliveryId: string }
  | { type: 'sendTest'; businessId: string };
