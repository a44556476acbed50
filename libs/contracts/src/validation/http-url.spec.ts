import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { CreateCheckoutRequest } from '../http/checkout/checkout.dto';
import { SetWebhookEndpointRequest } from '../http/webhooks/webhooks.dto';
import { isHttpUrl } from './http-url';

// A private-use character among an IPv4 address's digits: validator.js takes it for a host name.
const unparsable = 'http://127.0.0.\ue9671:1/';

describe('isHttpUrl', () => {
  it.each(['https://merchant.example/hooks', 'http://localhost:8080/', 'http://10.0.0.5/x?y=1', 'https://[::1]/'])(
    'accepts %s',
    (url) => expect(isHttpUrl(url)).toBe(true),
  );

  it.each([unparsable, 'ftp://merchant.example/', 'javascript:alert(1)', '/relative', '', 42, null])(
    'refuses %p',
    (url) => expect(isHttpUrl(url)).toBe(false),
  );
});

describe('@IsHttpUrl on the request bodies that carry URLs', () => {
  const fieldsRefused = (type: new () => object, body: object) =>
    validateSync(plainToInstance(type, body)).map((error) => [error.property, Object.values(error.constraints ?? {})]);

  it('refuses a URL the parser cannot read, with one message per field', () => {
    expect(fieldsRefused(SetWebhookEndpointRequest, { url: unparsable })).toEqual([
      ['url', ['url must be an http(s) URL']],
    ]);
    const checkout = { amount: '1000', accountName: 'Acme', paymentMethod: ['card'] };
    expect(
      fieldsRefused(CreateCheckoutRequest, { ...checkout, callBackUrl: unparsable, returnUrl: unparsable }),
    ).toEqual([
      ['callBackUrl', ['callBackUrl must be an http(s) URL']],
      ['returnUrl', ['returnUrl must be an http(s) URL']],
    ]);
  });

  it('refuses a URL of another scheme with one message', () => {
    expect(fieldsRefused(SetWebhookEndpointRequest, { url: 'ftp://merchant.example/' })).toEqual([
      ['url', ['url must be an http(s) URL']],
    ]);
  });

  it('accepts an http(s) URL', () => {
    expect(fieldsRefused(SetWebhookEndpointRequest, { url: 'https://merchant.example/hooks' })).toEqual([]);
  });
});
