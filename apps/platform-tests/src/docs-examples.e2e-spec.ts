import { eventually } from '@payments/testing';

import { allApps, appPorts, repoRoot, useApps } from './apps';
import {
  answersWithoutRequest,
  curlCommandsOf,
  CurlRequest,
  DocExample,
  examplesOf,
  parseCurl,
  partnerPages,
  readPage,
} from './docs/doc-examples';
import { differences, Learned } from './docs/shown-answer';
import { callGateway, createCheckout, onboardedPartner, PartnerCredentials } from './partners';
import { RecordingReceiver } from './receiver';

jest.setTimeout(240_000);

const pages = partnerPages.map((page) => ({ page, markdown: readPage(repoRoot, page) }));
const examples = pages.flatMap(({ page, markdown }) => examplesOf(page, markdown));

/**
 * Every request example of README.md and the partner pages, run as a partner would run it after
 * `npm start`, in the order the pages show them: the keys and ids a page shows (`pk_test_…`,
 * `CHK-01JD…`) stand for real ones, and an id a page's answer shows stands for the one the
 * platform answered in that page's later examples. A page whose example no longer runs, or
 * answers otherwise than the page shows, fails here.
 */
describe('the request examples of the partner pages, run as written', () => {
  useApps(allApps, { every: { WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' } });
  const receiver = new RecordingReceiver();
  let partner: PartnerCredentials;
  /** What the pages' placeholders stand for, whatever page they are on. */
  let placeholders: Record<string, string>;
  const learned = new Map<string, Learned>();

  beforeAll(async () => {
    await receiver.start();
    partner = await onboardedPartner('Acme Ltd', ['--webhook-url', receiver.url]);
    const paid = await createCheckout(partner, ['card'], '250000', 'Docs Shop');
    const card = { cardNumber: '5060990000000000019', expiryDate: '12/30', cvv: '123' };
    const charge = await callGateway(partner, 'POST', `/checkout/${paid}/card-payment`, card);
    expect(charge.body.data).toMatchObject({ transactionStatus: 'SUCCESS' });
    // The history lists a payment moments after it is answered: the pages' history examples show it.
    await eventually(async () => {
      const listed = await callGateway<{ items: unknown[] }>(partner, 'GET', `/transactions?reference=${paid}`);
      return listed.body.data.items.length > 0 ? true : undefined;
    }, 30_000);
    const refund = await eventually(async () => {
      const answer = await callGateway<{ reference: string }>(
        partner,
        'POST',
        '/refunds',
        { transactionReference: paid, amount: '20000' },
        { 'idempotency-key': 'docs-fixture-refund' },
      );
      return answer.status === 200 ? answer.body.data.reference : undefined;
    }, 30_000);
    placeholders = {
      'pk_test_…': partner.apiKey,
      'sk_test_…': partner.apiSecret,
      $API_KEY: partner.apiKey,
      $API_SECRET: partner.apiSecret,
      'CHK-01JD3Q8ZK4…': paid,
      'RFD-01JD3Q9A2B…': refund,
    };
  });

  afterAll(() => receiver.stop());

  it('finds the examples of every page that shows requests', () => {
    const withExamples = new Set(examples.map((example) => example.page));
    for (const page of [
      'README.md',
      'docs/checkout.md',
      'docs/refunds.md',
      'docs/transactions.md',
      'docs/webhooks.md',
    ]) {
      expect([page, withExamples.has(page)]).toEqual([page, true]);
    }
  });

  it('runs every curl command of the pages: each is a request to the platform, in a bash or sh block', () => {
    const runs = new Set(examples.map((example) => `${example.page}\n${example.command}`));
    const unrun = pages.flatMap(({ page, markdown }) =>
      curlCommandsOf(markdown)
        .filter((command) => !runs.has(`${page}\n${command}`))
        .map((command) => `${page}: ${command}`),
    );
    expect(unrun).toEqual([]);
  });

  it('shows no answer without the request that gets it', () => {
    const orphans = pages.flatMap(({ page, markdown }) =>
      answersWithoutRequest(markdown).map((line) => `${page}:${line}`),
    );
    expect(orphans).toEqual([]);
  });

  it.each(examples.map((example) => [`${example.page}:${example.line}`, example] as const))(
    '%s',
    async (_name, example: DocExample) => {
      const ofPage = learned.get(example.page) ?? new Map<string, string>();
      learned.set(example.page, ofPage);
      const request = parseCurl(substitute(example.command, ofPage, placeholders));
      const response = await send(request);
      const text = await response.text();
      const where = `${example.page}:${example.line} ${request.method} ${request.url}`;
      if (request.headerPattern) {
        const names: string[] = [];
        response.headers.forEach((_value, name) => names.push(name));
        const matching = names.filter((name) => request.headerPattern!.test(name));
        expect([where, matching.length > 0]).toEqual([where, true]);
      }
      if (example.shown && 'csvHeader' in example.shown) {
        expect([where, response.status, text.replace(/^\uFEFF/, '').split(/\r?\n/)[0]]).toEqual([
          where,
          200,
          example.shown.csvHeader,
        ]);
        return;
      }
      // The answers name this run's ports (links to the hosted page); the pages name npm start's.
      const body = JSON.parse(asOnNpmStart(text)) as { status: boolean; statusCode: number };
      expect([where, response.status]).toEqual([where, body.statusCode]);
      if (example.shown) {
        // A page that shows `data` alone (no statusCode) shows it inside the usual envelope.
        const shownWhole = typeof example.shown.json === 'object' && 'statusCode' in (example.shown.json ?? {});
        const answer = shownWhole ? body : { status: body.status, data: (body as { data?: unknown }).data };
        const shownAnswer = shownWhole ? example.shown.json : { status: true, data: example.shown.json };
        expect([where, differences(shownAnswer, answer, ofPage)]).toEqual([where, []]);
      } else {
        // No answer shown: the page presents a request that works.
        expect([where, body.status ? 'succeeded' : text]).toEqual([where, 'succeeded']);
      }
    },
  );
});

/** The command with the page's placeholders replaced by what they stand for, the longest first. */
function substitute(command: string, learnedOnPage: Learned, placeholders: Record<string, string>): string {
  const all = [...learnedOnPage.entries(), ...Object.entries(placeholders)].sort(([a], [b]) => b.length - a.length);
  return all.reduce((text, [placeholder, value]) => text.split(placeholder).join(value), command);
}

/** The request, sent to this run's ports (the pages name `npm start`'s). */
function send(request: CurlRequest): Promise<Response> {
  const url = request.url
    .replace('http://127.0.0.1:3000/', `http://127.0.0.1:${appPorts['checkout-gateway']}/`)
    .replace('http://127.0.0.1:3002/', `http://127.0.0.1:${appPorts['pos-ingest']}/`);
  return fetch(url, { method: request.method, headers: request.headers, body: request.body });
}

/** Text as `npm start` would have answered it: this run's ports replaced by the ones the pages name. */
function asOnNpmStart(text: string): string {
  return text
    .replaceAll(`127.0.0.1:${appPorts['checkout-gateway']}`, '127.0.0.1:3000')
    .replaceAll(`127.0.0.1:${appPorts['pos-ingest']}`, '127.0.0.1:3002');
}
