import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { CreateWebhookEndpointRequest, UpdateWebhookEndpointRequest } from './webhooks.dto';

const refused = (type: new () => object, body: object) =>
  validateSync(plainToInstance(type, body)).map((error) => error.property);

describe("an endpoint's event filter", () => {
  const url = 'https://orders.example/hooks';

  it.each([
    [['*']],
    [['checkout.success']],
    [['checkout.success', 'refund.processed']],
    // Every event the catalogue in docs/webhooks.md lists.
    [['webhook.test']],
    [['fundAccount.failed']],
  ])('accepts %j', (events) => {
    expect(refused(CreateWebhookEndpointRequest, { url, events })).toEqual([]);
    expect(refused(UpdateWebhookEndpointRequest, { events })).toEqual([]);
  });

  it.each([
    [[]],
    [['*', 'checkout.success']],
    [['checkout.success', 'checkout.success']],
    [['money.everywhere']],
    ['*'],
  ])('refuses %j', (events) => {
    expect(refused(CreateWebhookEndpointRequest, { url, events })).toEqual(['events']);
    expect(refused(UpdateWebhookEndpointRequest, { events })).toEqual(['events']);
  });

  it('takes every event when left out, and needs a URL only to create', () => {
    expect(refused(CreateWebhookEndpointRequest, { url })).toEqual([]);
    expect(refused(CreateWebhookEndpointRequest, {})).toEqual(['url']);
    expect(refused(UpdateWebhookEndpointRequest, {})).toEqual([]);
  });
});
