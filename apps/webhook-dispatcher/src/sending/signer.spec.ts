import { createHmac } from 'node:crypto';

import { webhookBody } from './signer';

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
