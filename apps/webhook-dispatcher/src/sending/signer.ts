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

/**
 * Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) for one attempt.
 * With more than one secret (a roll's grace), webhook-signature carries a signature for each,
 * space-separated as the standard allows: a receiver holding either secret verifies it.
 */
export function standardWebhookHeaders(
  signingSecrets: (string | null)[],
  messageId: string,
  body: string,
  at = new Date(),
): Record<string, string> {
  const signatures = signingSecrets
    .filter((secret): secret is string => secret !== null)
    .map((secret) => new Webhook(secret).sign(messageId, at, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
