import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

import { encryptPosPayload } from '@payments/platform-crypto';
import { eventually } from '@payments/testing';
import fc from 'fast-check';

import { allApps, AppName, appPorts, repoRoot, useApps, waitForReady } from './apps';
import {
  DashboardBrowser,
  dashboardForm,
  dashboardHeaders,
  dashboardQueryNames,
  dashboardRoutes,
} from './fuzz/dashboard-requests';
import {
  bodyBytes,
  Credentials,
  hostileHeaders,
  hostileString,
  hostileValue,
  pathSegment,
  Schema,
  schemaValue,
} from './fuzz/hostile';
import { callGateway, createPartner, PartnerCredentials, registerTerminal } from './partners';

// Requests per run: `npm test` sends 2,000, `npm run fuzz` 10,000. FUZZ_SEED replays a run.
const runs = Number(process.env.FUZZ_RUNS ?? 2_000);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

jest.setTimeout(Math.max(600_000, runs * 150));

interface Route {
  app: AppName;
  method: string;
  path: string;
  query: { name: string; schema: Schema }[];
  body?: Schema;
}

interface FuzzRequest {
  app: AppName;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The server closed the connection while the body was still being sent. */
  reset?: boolean;
}

const bodyLimit = 64 * 1024;

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: Schema }[];
        requestBody?: { content: Record<string, { schema: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** Writes a failing request to .data/http-fuzz-failure.json, whole, to replay by hand. */
function keepForReplay(fuzz: FuzzRequest): void {
  mkdirSync(join(repoRoot, '.data'), { recursive: true });
  writeFileSync(
    join(repoRoot, '.data/http-fuzz-failure.json'),
    JSON.stringify({ ...fuzz, port: appPorts[fuzz.app], body: fuzz.body?.toString('base64') }, null, 2),
  );
}

/**
 * Sends the request byte for byte (fetch would refuse some of it); resolves with the answer. A
 * body always goes with its Content-Length: without one, Node sends a GET's body unframed, and
 * the server would rightly read it as the next request on the kept-alive connection.
 */
function send(fuzz: FuzzRequest): Promise<Answer> {
  const headers = fuzz.body ? { ...fuzz.headers, 'content-length': String(fuzz.body.length) } : fuzz.headers;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: appPorts[fuzz.app],
        method: fuzz.method,
        path: fuzz.path,
        headers,
        agent,
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // A server may answer 413 and close before an oversized body is all sent; the client
      // then sees the reset instead of the answer.
      const oversized = (fuzz.body?.length ?? 0) > bodyLimit && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      if (oversized) resolve({ status: 0, contentType: '', text: '', reset: true });
      else reject(error);
    });
    outgoing.end(fuzz.body);
  });
}

/**
 * Readiness answers 503 while a probe of the database or the broker is slower than its limit:
 * the route's own documented answer, not a fault, as long as it comes in the envelope.
 */
function isNotReady(fuzz: FuzzRequest, answer: Answer): boolean {
  return answer.status === 503 && fuzz.path.split('?')[0] === '/health/ready';
}

/** What is wrong with an answer, or null: every answer is below 500, and every error an envelope. */
function problemWith(answer: Answer, allowedStatus?: number): string | null {
  if (answer.reset) return null;
  if ((answer.status >= 500 && answer.status !== allowedStatus) || answer.status < 200) {
    return `answered ${answer.status}`;
  }
  const json = answer.contentType.startsWith('application/json');
  if (answer.status < 400 && !json) return null; // the QR image, the API docs page, metrics
  if (!json) return `answered ${answer.status} with ${answer.contentType || 'no content type'}, not an envelope`;
  let body: { status?: unknown; message?: unknown; statusCode?: unknown };
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    return `answered ${answer.status} with JSON that does not parse`;
  }
  if (typeof body.status !== 'boolean' || typeof body.message !== 'string') {
    return `answered ${answer.status} without an envelope: ${answer.text.slice(0, 200)}`;
  }
  if (answer.status >= 400 && (body.status !== false || body.statusCode !== answer.status)) {
    return `error envelope disagrees with the status line: ${answer.text.slice(0, 200)}`;
  }
  return null;
}

/** Every documented route of an app, from its own OpenAPI document. */
async function documentedRoutes(app: AppName): Promise<{ routes: Route[]; components: Record<string, Schema> }> {
  const document = (await (await fetch(`http://127.0.0.1:${appPorts[app]}/docs-json`)).json()) as OpenApiDocument;
  const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      app,
      method: method.toUpperCase(),
      path,
      query: (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {} })),
      body: operation.requestBody?.content['application/json']?.schema,
    })),
  );
  return { routes, components: document.components?.schemas ?? {} };
}

/** A query parameter no route declares, with a number or any text. */
const unknownQuery: fc.Arbitrary<[string, string]> = fc.tuple(
  fc.stringMatching(/^[a-z]{1,8}$/),
  fc.oneof(fc.integer({ min: -5, max: 1e12 }).map(String), hostileString),
);

/** Cursors a client could forge: base64url of numbers past what PostgreSQL's bigint holds, or of no number. */
const forgedCursor: fc.Arbitrary<string> = fc
  .oneof(
    fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
    fc.constantFrom('9223372036854775807', '9223372036854775808', '9999999999999999999', '-1', '0'),
    hostileString,
  )
  .map((text) => Buffer.from(text).toString('base64url'));

/** One of the route's own query parameters, with a value its schema would mostly accept. */
function documentedQuery(
  parameters: Route['query'],
  components: Record<string, Schema>,
): fc.Arbitrary<[string, string]> {
  return fc.constantFrom(...parameters).chain(({ name, schema }) =>
    fc
      .oneof(
        schemaValue(schema, components).map((value) =>
          typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
        ),
        name === 'cursor' ? forgedCursor : fc.integer({ min: -5, max: 1e12 }).map(String),
      )
      .map((value): [string, string] => [name, value]),
  );
}

/** Percent-encodes the text's UTF-8 bytes (a lone surrogate becomes U+FFFD's, as any client's encoder makes it). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

describe('HTTP fuzz: hostile requests to every route', () => {
  const apps = useApps(allApps, { every: { LOG_LEVEL: 'warn' } });
  let partner: PartnerCredentials;
  let other: PartnerCredentials;
  const known: Record<string, string[]> = {};
  let serial: string;
  const ownerEmail = `fuzz-owner-${Date.now()}@fuzz.example`;
  const neighbourEmail = `fuzz-neighbour-${Date.now()}@fuzz.example`;

  beforeAll(async () => {
    partner = createPartner('Fuzz Partner', ['--owner-email', ownerEmail]);
    other = createPartner('Fuzz Neighbour', ['--owner-email', neighbourEmail]);
    await eventually(
      async () => ((await callGateway(partner, 'GET', '/wallets/settlement')).status === 200 ? true : undefined),
      30_000,
    );
    const outlet = (await callGateway<{ outletId: string }>(partner, 'POST', '/outlets', { accountName: 'Fuzz Shop' }))
      .body.data;
    const checkout = (
      await callGateway<{ reference: string }>(partner, 'POST', '/payin/charge/requests', {
        amount: '150000',
        accountName: 'Fuzz Shop',
        paymentMethod: ['card', 'pay-with-transfer', 'qr'],
      })
    ).body.data;
    serial = `SN-FUZZ-${Date.now()}`;
    await registerTerminal(partner.businessId, serial, outlet.outletId);
    Object.assign(known, {
      reference: [checkout.reference],
      checkoutReference: [checkout.reference],
      outletId: [outlet.outletId],
      id: [outlet.outletId],
    });
  });

  afterAll(async () => {
    agent.destroy();
  });

  it('answers every request with an envelope and a status below 500, and every app stays ready', async () => {
    const gateway = await documentedRoutes('checkout-gateway');
    const pos = await documentedRoutes('pos-ingest');
    const components = { ...gateway.components, ...pos.components };
    // The hosted page's session routes are not in the partner API's document.
    const sessionRoutes: Route[] = [
      { app: 'checkout-gateway', method: 'GET', path: '/checkout/session/{reference}', query: [] },
      { app: 'checkout-gateway', method: 'GET', path: '/checkout/session/{reference}/qr.svg', query: [] },
      {
        app: 'checkout-gateway',
        method: 'POST',
        path: '/checkout/session/{reference}/card-payment',
        query: [],
        body: gateway.routes.find((route) => route.path === '/checkout/{reference}/card-payment')?.body,
      },
      {
        app: 'checkout-gateway',
        method: 'POST',
        path: '/checkout/session/{reference}/card-authorization',
        query: [],
        body: gateway.routes.find((route) => route.path === '/checkout/{reference}/card-authorization')?.body,
      },
      { app: 'checkout-gateway', method: 'POST', path: '/checkout/session/{reference}/pay-with-transfer', query: [] },
    ];
    const routes = [...gateway.routes, ...pos.routes, ...sessionRoutes].filter((route) => route.path !== '/docs-json');
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.some((route) => route.app === 'pos-ingest' && route.path === '/pos')).toBe(true);

    const credentials = (of: PartnerCredentials): Credentials => ({
      'x-api-key': of.apiKey,
      'x-api-secret': of.apiSecret,
    });
    const headers = hostileHeaders(credentials(partner), credentials(other));
    const posPayload = fc.record(
      {
        accountType: fc.oneof(fc.constant('savings'), hostileValue),
        amount: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }).map(String), hostileValue),
        cardExpiryDate: fc.oneof(fc.constant('2812'), hostileValue),
        iccData: fc.oneof(fc.stringMatching(/^9F26[0-9A-F]{16}$/), hostileValue),
        pan: fc.oneof(fc.constant('5061460410120223210'), hostileValue),
        pinBlock: fc.oneof(fc.constant('null'), hostileValue),
        sequenceNumber: fc.oneof(
          fc.integer({ min: 1, max: 999_999 }).map((n) => String(n).padStart(6, '0')),
          hostileValue,
        ),
        cardHolderName: fc.oneof(fc.constant('SANDBOX CARDHOLDER'), hostileValue),
        aid: fc.oneof(fc.constant('A0000003710001'), hostileValue),
        track2Data: fc.oneof(fc.constant('5061460410120223210D28121010000000000000'), hostileValue),
        institutionCode: fc.oneof(fc.constant('627629'), hostileValue),
      },
      { requiredKeys: [] },
    );
    const posBody = fc.record(
      {
        serialNumber: fc.oneof({ weight: 4, arbitrary: fc.constant(serial) }, { weight: 1, arbitrary: hostileValue }),
        data: fc.oneof(
          { weight: 3, arbitrary: posPayload.map((payload) => encryptPosPayload(payload, partner.posEncryptionKey)) },
          {
            weight: 1,
            arbitrary: hostileValue.map((value) =>
              encryptPosPayload(JSON.stringify(value) ?? 'null', partner.posEncryptionKey),
            ),
          },
          { weight: 1, arbitrary: posPayload.map((payload) => encryptPosPayload(payload, other.posEncryptionKey)) },
          { weight: 1, arbitrary: hostileValue },
        ),
      },
      { requiredKeys: [] },
    );

    const requests: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...routes).chain((route) => {
      const segments = route.path
        .split('/')
        .map((part) => (/^\{(.+)\}$/.test(part) ? pathSegment(known[part.slice(1, -1)] ?? []) : fc.constant(part)));
      const query = fc.array(
        fc.oneof(
          { weight: 3, arbitrary: route.query.length ? documentedQuery(route.query, components) : unknownQuery },
          { weight: 1, arbitrary: unknownQuery },
        ),
        { maxLength: 3 },
      );
      const body =
        route.app === 'pos-ingest' && route.path === '/pos'
          ? bodyBytes(posBody)
          : route.body
            ? bodyBytes(schemaValue(route.body, components))
            : fc.option(bodyBytes(hostileValue), { freq: 4 }).map((bytes) => bytes ?? undefined);
      return fc.record({
        app: fc.constant(route.app),
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constant(route.method) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
        ),
        path: fc
          .tuple(fc.tuple(...segments), query)
          .map(
            ([parts, pairs]) =>
              parts.join('/') +
              (pairs.length ? `?${pairs.map(([name, value]) => `${name}=${percentEncoded(value)}`).join('&')}` : ''),
          ),
        headers,
        body,
      });
    });

    process.stdout.write(
      `HTTP fuzz: ${runs} requests over ${routes.length} routes, seed ${seed} (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs})\n`,
    );
    const statuses = new Map<string, number>();
    const notReadyAnswers: string[] = [];
    await fc.assert(
      fc.asyncProperty(requests, async (fuzz) => {
        const describe = () =>
          `${fuzz.method} ${fuzz.path.slice(0, 400)} on ${fuzz.app}\nheaders ${JSON.stringify(fuzz.headers).slice(0, 600)}, body ${fuzz.body?.length ?? 0} bytes: ${fuzz.body?.subarray(0, 300).toString('utf8') ?? 'none'}`;
        const answer = await send(fuzz.method === 'HEAD' ? { ...fuzz, body: undefined } : fuzz).catch(
          (error: Error) => {
            keepForReplay(fuzz);
            throw new Error(`${describe()}\nno answer: ${error.message}`);
          },
        );
        const key = answer.reset ? 'reset while sending' : String(answer.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        const notReady = isNotReady(fuzz, answer);
        if (notReady) notReadyAnswers.push(answer.text.slice(0, 300) || `${fuzz.method}: no body`);
        const problem =
          fuzz.method === 'HEAD'
            ? answer.status >= 500 && !notReady
              ? `answered ${answer.status}`
              : null
            : problemWith(answer, notReady ? 503 : undefined);
        if (problem) {
          keepForReplay(fuzz);
          const output = apps.find((app) => app.name === fuzz.app)?.output() ?? '';
          throw new Error(`${describe()}\n${problem}\n${fuzz.app} printed last:\n${output.slice(-2000)}`);
        }
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
    process.stdout.write(
      `HTTP fuzz: answers by status ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a.localeCompare(b))))}\n`,
    );

    for (const text of notReadyAnswers) process.stdout.write(`HTTP fuzz: readiness answered 503: ${text}\n`);

    // Requests did reach the rules, not only the front door.
    expect((statuses.get('422') ?? 0) + (statuses.get('400') ?? 0)).toBeGreaterThan(0);
    expect(statuses.get('200') ?? 0).toBeGreaterThan(0);
    for (const app of apps) {
      expect(app.process.exitCode).toBeNull();
      await waitForReady(appPorts[app.name], app, 10_000);
    }
  });
  it("answers every dashboard request below 500, and never with another business's member", async () => {
    const gateway = `http://127.0.0.1:${appPorts['checkout-gateway']}`;
    const owner = await signedUpOwner(partner, gateway);
    await signedUpOwner(other, gateway);
    const requests: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...dashboardRoutes).chain((route) =>
      fc.record({
        app: fc.constant<AppName>('checkout-gateway'),
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constant(route.method) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE') },
        ),
        path: fc
          .option(fc.tuple(fc.constantFrom(...dashboardQueryNames), hostileString), { freq: 3 })
          .map((query) => (query === null ? route.path : `${route.path}?${query[0]}=${percentEncoded(query[1])}`)),
        headers: dashboardHeaders(owner, gateway),
        body: route.method === 'POST' ? dashboardForm(route.path, owner) : fc.constant(undefined),
      }),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requests, async (fuzz) => {
        const answer = await send(fuzz.method === 'GET' ? { ...fuzz, body: undefined } : fuzz);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const problem =
          answer.status >= 500 || answer.status < 200
            ? `answered ${answer.status}`
            : answer.text.includes(neighbourEmail)
              ? "showed another business's member"
              : null;
        if (problem) {
          keepForReplay(fuzz);
          throw new Error(`${fuzz.method} ${fuzz.path.slice(0, 300)}: ${problem}\n${answer.text.slice(0, 500)}`);
        }
      }),
      { numRuns: Math.ceil(runs / 4), seed, endOnFailure: true },
    );
    process.stdout.write(`HTTP fuzz, dashboard: answers by status ${JSON.stringify(Object.fromEntries(statuses))}\n`);
    // Signed-in pages were served, and posts reached the rules.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect((statuses.get(303) ?? 0) + (statuses.get(403) ?? 0) + (statuses.get(422) ?? 0)).toBeGreaterThan(0);
  });
});

/** The business's owner, signed up from partner:create's link: their browser's cookies and form token. */
async function signedUpOwner(partner: PartnerCredentials, gateway: string): Promise<DashboardBrowser> {
  const link = new URL((partner as PartnerCredentials & { ownerSignUpLink: string }).ownerSignUpLink);
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = line.split(';')[0].split('=');
      cookies.set(name, value);
    }
  };
  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const formTokenOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];
  const signUpPage = await fetch(`${gateway}/dashboard/sign-up${link.search}`);
  keep(signUpPage);
  const password = 'fuzzing is not a password';
  const signedUp = await fetch(`${gateway}/dashboard/sign-up`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie(), origin: gateway },
    body: new URLSearchParams({
      _csrf: formTokenOf(await signUpPage.text()),
      invitation: link.searchParams.get('invitation')!,
      password,
      confirmation: password,
    }).toString(),
  });
  expect(signedUp.status).toBe(303);
  keep(signedUp);
  const home = await fetch(`${gateway}/dashboard/team`, { headers: { cookie: cookie() } });
  expect(home.status).toBe(200);
  return { cookie: cookie(), formToken: formTokenOf(await home.text()) };
}
