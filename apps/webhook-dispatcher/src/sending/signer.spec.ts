import { createHmac, randomBytes } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import { standardWebhookHeaders, webhookBody } from './signer';

/** What a receiver does (docs/webhooks.md): HMAC-SHA256 of the minified eventData, keyed with its x-api-key. */
const signedWith = (apiKey: string, eventData: unknown) =>
  createHmac('sha256', apiKey).update(JSON.stringify(eventData)).digest('hex');

describe('webhook body signatures', () => {
  const eventData = { amount: '250000', transactionReference: 'ref-1', transactionStatus: 'SUCCESS' };

  it('signs with the key in use, and only with it outside a grace period', () => {
    const body = JSON.parse(webhookBody('fundAccount.success', eventData, 'pk_test_new')) as Record<string, unknown>;
    expect(body).toEqual({ event: 'fundAccount.success', eventData, signature: signedWith('pk_test_new', eventData) });
  });

  it('adds the rolled key’s signature while its grace lasts, so either key verifies', () => {
    const body = JSON.parse(webhookBody('fundAccount.success', eventData, 'pk_test_new', 'pk_test_old')) as {
      signature: string;
      previousSignature: string;
    };
    expect(body.signature).toBe(signedWith('pk_test_new', eventData));
    expect(body.previousSignature).toBe(signedWith('pk_test_old', eventData));
    expect(body.previousSignature).not.toBe(body.signature);
  });
});

describe('Standard Webhooks headers', () => {
  const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
  const body = JSON.stringify({ event: 'checkout.success', eventData: { amount: '100' } });

  it('carries one signature per secret, so a receiver holding either verifies the delivery', () => {
    const [current, previous, stranger] = [secret(), secret(), secret()];
    const headers = standardWebhookHeaders([current, previous], 'evt-1', body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow();
  });

  it('signs with the current secret alone outside a grace period', () => {
    const [current, previous] = [secret(), secret()];
    const headers = standardWebhookHeaders([current, null], 'evt-1', body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(() => new Webhook(previous).verify(body, headers)).toThrow();
  });
});
