import { createHmac } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

/** The spec's signature: hex HMAC-SHA256 of the minified JSON of eventData, keyed with the API key. */
export function specSignature(eventData: unknown, apiKey: string): string {
  return createHmac('sha256', apiKey).update(JSON.stringify(eventData), 'utf8').digest('hex');
}

/**
 * The webhook body exactly as sent: {event, eventData, signature}, signed with the API key in
 * use; while a rolled key's grace lasts, `previousSignature` is made with that one, so a receiver
 * that still holds it keeps accepting webhooks (docs/keys.md: accept either).
 */
export function webhookBody(
  event: string,
  eventData: unknown,
  apiKey: string,
  previousApiKey: string | null = null,
): string {
  return JSON.stringify({
    event,
    eventData,
    signature: specSignature(eventData, apiKey),
    ...(previousApiKey ? { previousSignature: specSignature(eventData, previousApiKey) } : {}),
  });
}

/** Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) for one attempt. */
export function standardWebhookHeaders(
  signingSecret: string,
  messageId: string,
  body: string,
  at = new Date(),
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(signingSecret).sign(messageId, at, body),
  };
}
