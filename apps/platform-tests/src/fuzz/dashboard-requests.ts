import fc from 'fast-check';

import { hostileString, hostileValue } from './hostile';

/** The dashboard's routes, as a browser reaches them (they are no part of the partner API's document). */
export const dashboardRoutes: { method: string; path: string }[] = [
  ...[
    '',
    '/sign-in',
    '/sign-up',
    '/two-factor',
    '/security',
    '/team',
    '/transactions',
    '/transactions/export',
    '/transactions/REF-1',
    '/refunds/RF-1',
    '/webhooks',
    '/webhooks/deliveries/dlv_1',
    '/assets/dashboard.css',
  ].map((path) => ({
    method: 'GET',
    path: `/dashboard${path}`,
  })),
  ...[
    '/sign-in',
    '/sign-up',
    '/two-factor',
    '/two-factor/set-up',
    '/two-factor/confirm',
    '/two-factor/requirement',
    '/team/invitations',
    '/team/role',
    '/team/remove',
    '/transactions/REF-1/refund',
    '/refunds',
    '/webhooks/test',
    '/webhooks/deliveries/dlv_1/replay',
    '/sign-out',
    '/sign-out-everywhere',
  ].map((path) => ({ method: 'POST', path: `/dashboard${path}` })),
];

/** The names the dashboard's pages read from a query string. */
export const dashboardQueryNames = [
  'invitation',
  'status',
  'productType',
  'reference',
  'outletId',
  'from',
  'to',
  'cursor',
];

/** A signed-in member's browser: its cookies, and the form token its pages carry. */
export interface DashboardBrowser {
  cookie: string;
  formToken: string;
}

const fieldNames = [
  '_csrf',
  'email',
  'password',
  'confirmation',
  'code',
  'invitation',
  'member',
  'role',
  'required',
  'amount',
  'reason',
  'reference',
  'key',
];

/**
 * A form post's body: the dashboard's own fields (and others) with hostile values, repeated
 * fields, and now and then the member's real form token, so that some changes reach the rules.
 * Sign-out routes never get the real token: a run signed out would reach nothing further.
 */
export function dashboardForm(path: string, browser: DashboardBrowser): fc.Arbitrary<Buffer> {
  const token = path.startsWith('/dashboard/sign-out')
    ? hostileString
    : fc.oneof({ weight: 1, arbitrary: fc.constant(browser.formToken) }, { weight: 2, arbitrary: hostileString });
  const value = fc.oneof(
    { weight: 3, arbitrary: hostileString },
    { weight: 1, arbitrary: hostileValue.map((each) => JSON.stringify(each) ?? '') },
    { weight: 1, arbitrary: fc.constantFrom('owner', 'viewer', 'yes', 'no', '123456', 'a@b.example') },
  );
  const fields = fc.array(fc.tuple(fc.constantFrom(...fieldNames, 'constructor', '__proto__'), value), {
    maxLength: 8,
  });
  return fc
    .tuple(token, fields)
    .map(([csrf, pairs]) => Buffer.from(new URLSearchParams([['_csrf', csrf], ...pairs]).toString()));
}

/** Headers a browser, a forger or a script might send: the member's cookie or none, this site's origin or another. */
export function dashboardHeaders(browser: DashboardBrowser, origin: string): fc.Arbitrary<Record<string, string>> {
  return fc
    .record({
      cookie: fc.oneof(
        { weight: 4, arbitrary: fc.constant(browser.cookie) },
        { weight: 1, arbitrary: fc.constant('') },
        {
          weight: 1,
          arbitrary: hostileString.map((text) => `__Host-dashboard-session=${Buffer.from(text).toString('base64url')}`),
        },
      ),
      origin: fc.oneof(
        { weight: 3, arbitrary: fc.constant(origin) },
        { weight: 1, arbitrary: fc.constantFrom('null', 'https://evil.example', '') },
      ),
      'content-type': fc.oneof(
        { weight: 4, arbitrary: fc.constant('application/x-www-form-urlencoded') },
        { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data') },
      ),
      'sec-fetch-site': fc.constantFrom('same-origin', 'cross-site', 'none'),
    })
    .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== '')));
}
