import { encryptPosPayload } from '@payments/platform-crypto';
import { queryTestDatabase, samplePosPayload } from '@payments/testing';

import { appPorts, npmRun, RunningApp, spawnApp, stopApps, waitForReady } from './apps';
import { createCheckout, createPartner, Envelope, PartnerCredentials, registerTerminal } from './partners';

jest.setTimeout(240_000);

/** Two instances of each app that limits, behind one imagined load balancer that alternates. */
const gateways = [appPorts['checkout-gateway'], appPorts['checkout-gateway'] + 10];
const posIngests = [appPorts['pos-ingest'], appPorts['pos-ingest'] + 10];
const windowSeconds = 600;
const hostedPageQuota = 30;
const keyQuota = 40;

interface Answer {
  status: number;
  headers: Headers;
  body: Envelope;
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope };
}

/** Sends `count` requests, eight at a time, request i to instance i mod 2; the answers in order. */
async function alternating(count: number, request: (port: number, i: number) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += 8) {
    const batch = Array.from({ length: Math.min(8, count - i) }, (_, j) =>
      request(i + j < count && (i + j) % 2 === 0 ? gateways[0] : gateways[1], i + j),
    );
    answers.push(...(await Promise.all(batch)));
  }
  return answers;
}

/** Waits, if need be, for a window with at least 60 s left, so one run of requests sees one window. */
async function freshWindow(): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < 60_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/**
 * The quota holds across both instances within 10% (`usedBefore` of it spent earlier in the
 * window), and what went over it heard 429 RATE_LIMITED, when to retry, and why.
 */
function expectQuotaHeld(answers: Answer[], quota: number, policy: string, usedBefore = 0): void {
  const allowed = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(allowed.length).toBeLessThanOrEqual(quota - usedBefore);
  expect(allowed.length).toBeGreaterThanOrEqual(Math.floor(quota * 0.9) - usedBefore);
  for (const answer of refused) {
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ status: false, statusCode: 429, data: { code: 'RATE_LIMITED' } });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answer.headers.get('ratelimit')).toMatch(new RegExp(`^"${policy}";r=0;t=\\d+$`));
  }
  for (const answer of answers) {
    expect(answer.headers.get('ratelimit-policy')).toBe(`"${policy}";q=${quota};w=${windowSeconds}`);
  }
}

describe('rate limits across two instances of each app', () => {
  const apps: RunningApp[] = [];
  let partner: PartnerCredentials;
  let outletId: string;
  let checkoutReference: string;
  const serial = `SN-LIMITS-${Date.now()}`;

  beforeAll(async () => {
    const hostedPage = { RATE_LIMIT_HOSTED_PAGE: `${hostedPageQuota}/${windowSeconds}s` };
    apps.push(
      spawnApp('outlet-service'),
      ...gateways.map((port) => spawnApp('checkout-gateway', { PORT: String(port), ...hostedPage })),
      ...posIngests.map((port) => spawnApp('pos-ingest', { PORT: String(port) })),
    );
    await Promise.all([
      waitForReady(appPorts['outlet-service'], apps[0]),
      ...[...gateways, ...posIngests].map((port, i) => waitForReady(port, apps[i + 1])),
    ]);
    partner = createPartner('Rate Limited Partner');
    // Before the key's first request, which would cache "no override" for 30 s.
    const set = npmRun('rate-limit:set', [
      '--business',
      partner.businessId,
      '--limit',
      'partner-api',
      '--requests',
      String(keyQuota),
      '--per',
      String(windowSeconds),
      '--json',
    ]);
    expect(set.status).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      businessId: partner.businessId,
      limit: 'partner-api',
      override: { requests: keyQuota, perSeconds: windowSeconds },
    });
    const outlet = await keyed(gateways[0], '/outlets', {
      method: 'POST',
      body: JSON.stringify({ accountName: 'Limited Shop' }),
    });
    outletId = (outlet.body.data as { outletId: string }).outletId;
    checkoutReference = await createCheckout(partner, ['card']);
  });

  afterAll(() => stopApps(apps));

  const keyed = (port: number, path: string, init: RequestInit = {}) =>
    call(`http://127.0.0.1:${port}${path}`, {
      ...init,
      headers: {
        'x-api-key': partner.apiKey,
        'x-api-secret': partner.apiSecret,
        'content-type': 'application/json',
        ...init.headers,
      },
    });

  it("holds a business's API key to the quota an operator set, on every instance", async () => {
    await freshWindow();
    const probe = await keyed(gateways[0], '/outlets');
    expect(probe.status).toBe(200);
    const left = Number(/;r=(\d+);/.exec(probe.headers.get('ratelimit') ?? '')?.[1]);
    expect(left).toBeLessThan(keyQuota);
    const answers = await alternating(2 * keyQuota, (port) => keyed(port, '/outlets'));
    expectQuotaHeld(answers, keyQuota, 'partner-api', keyQuota - left);
  });

  it('keeps no API key or secret in the counts, where a dump of the database would show them', async () => {
    const rows = await queryTestDatabase<{ row: string }>(
      `SELECT w::text AS row FROM gateway.rate_limit_windows w
       UNION ALL SELECT w::text FROM pos_ingest.rate_limit_windows w`,
    );
    expect(rows.some(({ row }) => row.includes(partner.businessId))).toBe(true);
    for (const { row } of rows) expect(row).not.toMatch(/pk_|sk_/);
  });

  it("holds a terminal to its business's quota across pos-ingest instances", async () => {
    const set = npmRun('rate-limit:set', [
      '--business',
      partner.businessId,
      '--limit',
      'terminal',
      '--requests',
      '20',
      '--per',
      String(windowSeconds),
    ]);
    expect(set.status).toBe(0);
    expect(set.stdout).toContain(`Business ${partner.businessId}, terminal: 20 requests every ${windowSeconds} s`);
    await registerTerminal(partner.businessId, serial, outletId);

    await freshWindow();
    const answers = await alternating(40, (_port, i) =>
      call(`http://127.0.0.1:${posIngests[i % 2]}/pos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          serialNumber: serial,
          data: encryptPosPayload(samplePosPayload(), partner.posEncryptionKey),
        }),
      }),
    );
    expectQuotaHeld(answers, 20, 'terminal');
  });

  it('holds each client address of the hosted page to its quota, and no other address to it', async () => {
    await freshWindow();
    const page = (address: string) => (port: number) =>
      call(`http://127.0.0.1:${port}/checkout/session/${checkoutReference}`, {
        headers: { 'x-forwarded-for': address },
      });
    expectQuotaHeld(await alternating(2 * hostedPageQuota, page('203.0.113.7')), hostedPageQuota, 'hosted-page');
    const another = await page('203.0.113.8')(gateways[1]);
    expect(another.status).toBe(200);
    expect(another.headers.get('ratelimit')).toMatch(new RegExp(`^"hosted-page";r=${hostedPageQuota - 1};t=\\d+$`));
  });

  it('refuses an override of a limit the app does not count, or for a business it does not know', () => {
    const unknownLimit = npmRun('rate-limit:set', [
      '--business',
      partner.businessId,
      '--limit',
      'everything',
      '--clear',
    ]);
    expect(unknownLimit.status).toBe(2);
    expect(unknownLimit.stderr).toContain('--limit must be partner-api here');
    const stranger = npmRun('rate-limit:set', ['--business', 'NO-SUCH-BUSINESS', '--limit', 'terminal', '--clear']);
    expect(stranger.status).toBe(2);
    expect(stranger.stderr).toContain('no business NO-SUCH-BUSINESS');
  });
});
