import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import type { paths } from '@payments/api-client';
import { PartnerEvents } from '@payments/contracts';
import { eventually } from '@payments/testing';
import newman, { NewmanRunSummary } from 'newman';
import createClient from 'openapi-fetch';

import { allApps, AppName, appPorts, repoRoot, useApps } from './apps';
import { callGateway, createPartner, onboardedPartner } from './partners';

jest.setTimeout(180_000);

/** The contract partners code against, and the client generated from it: committed, reviewed as diffs. */
const documentFile = join(repoRoot, 'docs/openapi.json');
const clientTypesFile = join(repoRoot, 'clients/typescript/payments-api.d.ts');
const collectionFile = join(repoRoot, 'docs/postman/payments-api.postman_collection.json');
/** `npm run openapi` sets it: the files are written from the running apps instead of compared. */
const updating = process.env.OPENAPI_UPDATE === '1';

type Document = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; securitySchemes?: unknown };
  webhooks?: Record<string, { post: { requestBody: { content: Record<string, { example?: unknown }> } } }>;
};

/** Routes for operators, not partners: probes, metrics and the documents themselves. */
const operational = /^\/(health|metrics|docs)/;

const served = async (app: AppName) =>
  (await (await fetch(`http://127.0.0.1:${appPorts[app]}/docs-json`)).json()) as Document;

/**
 * One document for partners: the gateway's routes and webhooks, and pos-ingest's POST /pos (on
 * its own server), with only the schemas they use.
 */
function partnerDocument(gateway: Document, posIngest: Document): Document {
  const partnerPaths = (document: Document) =>
    Object.fromEntries(Object.entries(document.paths).filter(([path]) => !operational.test(path)));
  const document: Document = {
    ...gateway,
    info: { ...(gateway.info as object), title: 'Payments platform partner API' },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'checkout-gateway, as `npm start` runs it (sandbox)' }],
    paths: {
      ...partnerPaths(gateway),
      ...Object.fromEntries(
        Object.entries(partnerPaths(posIngest)).map(([path, item]) => [
          path,
          { ...item, servers: [{ url: 'http://127.0.0.1:3002', description: 'pos-ingest, for terminals' }] },
        ]),
      ),
    },
  };
  document.components = {
    ...gateway.components,
    schemas: referencedSchemas(document, { ...posIngest.components.schemas, ...gateway.components.schemas }),
  };
  return document;
}

/** The schemas the document reaches through $ref, and no other (every app's process knows internal ones too). */
function referencedSchemas(document: Document, all: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      const name = key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', '') : null;
      if (name && !(name in kept)) {
        kept[name] = all[name];
        visit(all[name]);
      } else visit(inner);
    }
  };
  visit({ paths: document.paths, webhooks: document.webhooks });
  return Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)));
}

const asText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The client types openapi-typescript generates from the committed document. */
function generatedClientTypes(): string {
  const out = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'payments-api.d.ts');
  const run = spawnSync('npx', ['openapi-typescript', documentFile, '--output', out], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`openapi-typescript failed: ${run.stderr}`);
  return readFileSync(out, 'utf8');
}

/** Postman's test on every response: the envelope holds, whatever the request got wrong. */
const envelopeCheck = [
  "pm.test('answers in the envelope, its statusCode the HTTP status', function () {",
  '  pm.expect(pm.response.code).to.be.below(500);',
  '  const body = pm.response.json();',
  '  pm.expect(body.statusCode).to.equal(pm.response.code);',
  '  pm.expect(body.status).to.equal(pm.response.code === 200);',
  '});',
];

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { method: string; url: { host: string[]; path: string[] }; header?: { key: string; value: string }[] };
}

interface Collection {
  item: PostmanItem[];
  variable: unknown[];
  event: unknown[];
}

/**
 * The Postman collection for the committed document: openapi-to-postmanv2's conversion, the
 * key headers from variables, POST /pos on its own base URL, and the envelope test on every
 * request. The converter's example values are drawn from a seeded Math.random, so the same
 * document always gives the same collection.
 */
function generatedCollection(): Collection {
  const out = join(mkdtempSync(join(tmpdir(), 'postman-')), 'collection.json');
  const converter = require.resolve('openapi-to-postmanv2/bin/openapi2postmanv2.js');
  const seeded = join(__dirname, 'seeded-random.cjs');
  const options = 'folderStrategy=Tags,parametersResolution=Schema';
  const run = spawnSync(
    process.execPath,
    ['--require', seeded, converter, '-s', documentFile, '-o', out, '-p', '-O', options],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`openapi2postmanv2 failed: ${run.stderr}`);
  const collection = JSON.parse(readFileSync(out, 'utf8'), (key, value: unknown) =>
    key === 'id' || key === '_postman_id' ? undefined : value,
  ) as Collection;
  for (const { request } of requestsOf(collection)) {
    if (request!.url.path.join('/') === 'pos') request!.url.host = ['{{posBaseUrl}}'];
    else {
      request!.header = [
        ...(request!.header ?? []),
        { key: 'x-api-key', value: '{{apiKey}}' },
        { key: 'x-api-secret', value: '{{apiSecret}}' },
      ];
    }
  }
  collection.variable = [
    { key: 'baseUrl', value: 'http://127.0.0.1:3000' },
    { key: 'posBaseUrl', value: 'http://127.0.0.1:3002' },
    { key: 'apiKey', value: 'pk_test_…' },
    { key: 'apiSecret', value: 'sk_test_…' },
  ];
  collection.event = [{ listen: 'test', script: { type: 'text/javascript', exec: envelopeCheck } }];
  return collection;
}

function requestsOf(collection: { item: PostmanItem[] }): PostmanItem[] {
  const flatten = (items: PostmanItem[]): PostmanItem[] =>
    items.flatMap((item) => (item.item ? flatten(item.item) : [item]));
  return flatten(collection.item);
}

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};

/**
 * The fields of `value` its schema does not describe, by dotted path: what a client generated
 * from the document would not know the API sends. An object schema without properties (a
 * partner's metadata) takes any fields.
 */
function undocumentedFields(value: unknown, schema: Schema, schemas: Record<string, Schema>, at = 'data'): string[] {
  if (schema.$ref) return undocumentedFields(value, schemas[schema.$ref.split('/').pop()!], schemas, at);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const each = alternatives.map((alternative) => undocumentedFields(value, alternative, schemas, at));
    return each.find((fields) => fields.length === 0) ?? each[0];
  }
  if (Array.isArray(value)) {
    return schema.items
      ? value.flatMap((item, index) => undocumentedFields(item, schema.items!, schemas, `${at}.${index}`))
      : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  const properties: Record<string, Schema> = Object.assign(
    {},
    ...(schema.allOf ?? []).map((part) => (part.$ref ? schemas[part.$ref.split('/').pop()!] : part).properties ?? {}),
    schema.properties ?? {},
  );
  if (Object.keys(properties).length === 0) return [];
  return Object.entries(value).flatMap(([name, field]) =>
    name in properties ? undocumentedFields(field, properties[name], schemas, `${at}.${name}`) : [`${at}.${name}`],
  );
}

/** The document's operations: every method of every path. */
const operationsOf = (document: Document) =>
  Object.values(document.paths).flatMap((item) => Object.keys(item).filter((key) => key !== 'servers'));

describe('the partner API contract as files', () => {
  // Every app: the Postman run reaches every route, and routes answer from the services behind them.
  useApps(allApps);
  let document: Document;

  beforeAll(async () => {
    document = partnerDocument(await served('checkout-gateway'), await served('pos-ingest'));
    if (updating) {
      writeFileSync(documentFile, asText(document));
      writeFileSync(clientTypesFile, generatedClientTypes());
      mkdirSync(dirname(collectionFile), { recursive: true });
      writeFileSync(collectionFile, asText(generatedCollection()));
    }
  });

  it('is committed in docs/openapi.json exactly as the apps serve it (npm run openapi rewrites it)', () => {
    expect(readFileSync(documentFile, 'utf8')).toBe(asText(document));
  });

  it('passes the OpenAPI linter: no errors, and every example valid against its schema', () => {
    const lint = spawnSync('npx', ['redocly', 'lint', documentFile, '--format', 'stylish'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const output = lint.stdout + lint.stderr;
    expect({ status: lint.status, output: lint.status === 0 ? '' : output }).toEqual({ status: 0, output: '' });
    // Warnings left on purpose: no licence is published, and optional fields' schemas may overlap.
    const accepted = new Set(['info-license', 'no-illogical-composition-keywords']);
    const warned = [...output.matchAll(/\bwarning\s+(\S+)/g)].map(([, rule]) => rule);
    expect([...new Set(warned.filter((rule) => !accepted.has(rule)))]).toEqual([]);
  });

  it('describes every webhook with its schema and an example', () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual(Object.values(PartnerEvents).sort());
    for (const [event, { post }] of Object.entries(document.webhooks ?? {})) {
      expect([event, post.requestBody.content['application/json'].example]).toEqual([
        event,
        expect.objectContaining({ event }),
      ]);
    }
  });

  it('documents only partner routes, and POST /pos on pos-ingest', () => {
    expect(Object.keys(document.paths).filter((path) => operational.test(path))).toEqual([]);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/payin/charge/requests', '/business/keys/roll', '/pos']),
    );
  });

  it('has the typed client generated from the committed document', () => {
    expect(readFileSync(clientTypesFile, 'utf8')).toBe(generatedClientTypes());
  });

  it('has the Postman collection generated from the committed document, a request for every operation', () => {
    const generated = generatedCollection();
    expect(readFileSync(collectionFile, 'utf8')).toBe(asText(generated));
    expect(requestsOf(generated)).toHaveLength(operationsOf(document).length);
  });

  it('runs the Postman collection against the sandbox: every route answers in the envelope, none with a 5xx', async () => {
    const partner = createPartner('Postman Partner');
    const summary = await new Promise<NewmanRunSummary>((resolve, reject) =>
      newman.run(
        {
          collection: JSON.parse(readFileSync(collectionFile, 'utf8')) as object,
          envVar: [
            { key: 'baseUrl', value: `http://127.0.0.1:${appPorts['checkout-gateway']}` },
            { key: 'posBaseUrl', value: `http://127.0.0.1:${appPorts['pos-ingest']}` },
            { key: 'apiKey', value: partner.apiKey },
            { key: 'apiSecret', value: partner.apiSecret },
          ],
          reporters: [],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    const operations = operationsOf(document);
    expect(summary.run.stats.requests.total).toBe(operations.length);
    expect(summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error.message}`)).toEqual([]);
    expect(summary.run.stats.assertions.total).toBe(operations.length);
  });

  it('drives every query parameter of every list route through the typed client, and documents every field answered', async () => {
    const partner = await onboardedPartner('Typed Lists Partner');
    const api = createClient<paths>({
      baseUrl: `http://127.0.0.1:${appPorts['checkout-gateway']}`,
      headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret },
    });
    const from = new Date(Date.now() - 60_000).toISOString();
    const outlet = (await api.POST('/outlets', { body: { accountName: 'Typed Lists Outlet' } })).data!.data;
    const credit = (amount: string) =>
      callGateway(partner, 'POST', `/sandbox/virtual-accounts/${outlet.collectionWallet.accountNumber}/credit`, {
        amount,
      });
    for (const amount of ['10000', '20000']) expect((await credit(amount)).status).toBe(200);
    const to = new Date(Date.now() + 60_000).toISOString();
    const filters = { status: 'SUCCESS', productType: 'collection', outletId: outlet.outletId } as const;
    const listed = await eventually(async () => {
      const page = await api.GET('/transactions', { params: { query: { ...filters, from, to, limit: 1 } } });
      return page.data?.data.nextCursor ? page : undefined;
    }, 30_000);
    const first = listed.data!.data.items[0];
    const next = await api.GET('/transactions', {
      params: {
        query: { ...filters, from, to, limit: 1, cursor: listed.data!.data.nextCursor!, reference: undefined },
      },
    });
    expect(next.data!.data.items).toEqual([expect.objectContaining({ amount: '10000' })]);
    const byReference = await api.GET('/transactions', {
      params: { query: { ...filters, reference: first.reference, from, to, limit: 5, cursor: undefined } },
    });
    expect(byReference.data!.data.items).toEqual([first]);
    const one = await api.GET('/transactions/{reference}', {
      params: { path: { reference: first.reference }, query: { productType: 'collection' } },
    });
    expect(one.data!.data).toEqual(first);
    const exported = await api.GET('/transactions/export', {
      params: { query: { ...filters, reference: first.reference, from, to } },
      parseAs: 'text',
    });
    expect(exported.response.status).toBe(200);
    expect(exported.data).toContain(first.reference);
    const outlets = await api.GET('/outlets', { params: { query: { search: 'Typed Lists', page: 1, limit: 5 } } });
    expect(outlets.data!.data.items).toEqual([expect.objectContaining({ outletId: outlet.outletId })]);
    // The credits' events, held: this partner has no webhook URL.
    const deliveries = await eventually(async () => {
      const page = await api.GET('/webhooks/deliveries', {
        params: {
          query: {
            endpointId: 'default',
            status: 'held',
            event: 'fundAccount.success',
            from,
            to: new Date(Date.now() + 60_000).toISOString(),
            page: 1,
            limit: 5,
          },
        },
      });
      return page.data?.data.items.length ? page : undefined;
    }, 30_000);

    // A card checkout refunded twice, for GET /refunds.
    const paid = (
      await api.POST('/payin/charge/requests', {
        body: { amount: '50000', accountName: 'Typed Lists Outlet', paymentMethod: ['card'] },
      })
    ).data!.data.reference;
    await api.POST('/checkout/{reference}/card-payment', {
      params: { path: { reference: paid } },
      body: { cardNumber: '5060990000000000019', expiryDate: '12/30', cvv: '123' },
    });
    for (const amount of ['1000', '2000']) {
      await api.POST('/refunds', {
        params: { header: { 'Idempotency-Key': `typed-refund-${amount}-${Date.now()}` } },
        body: { transactionReference: paid, amount },
      });
    }
    const refundFilters = {
      status: 'PENDING',
      transactionReference: paid,
      from,
      to: new Date(Date.now() + 60_000).toISOString(),
    } as const;
    const refunds = await api.GET('/refunds', { params: { query: { ...refundFilters, limit: 1 } } });
    const refundsAfter = await api.GET('/refunds', {
      params: { query: { ...refundFilters, limit: 1, cursor: refunds.data!.data.nextCursor! } },
    });
    expect([...refunds.data!.data.items, ...refundsAfter.data!.data.items].map((refund) => refund.amount)).toEqual([
      '2000',
      '1000',
    ]);

    // Every query parameter the document gives any route is one this test sends.
    const driven: Record<string, string[]> = {
      'GET /refunds': ['cursor', 'from', 'limit', 'status', 'to', 'transactionReference'],
      'GET /transactions': ['cursor', 'from', 'limit', 'outletId', 'productType', 'reference', 'status', 'to'],
      'GET /transactions/export': ['from', 'outletId', 'productType', 'reference', 'status', 'to'],
      'GET /transactions/{reference}': ['productType'],
      'GET /outlets': ['limit', 'page', 'search'],
      'GET /webhooks/deliveries': ['endpointId', 'event', 'from', 'limit', 'page', 'status', 'to'],
    };
    const documented = Object.fromEntries(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item).flatMap(([method, operation]) => {
          const parameters = (operation as { parameters?: { name: string; in: string }[] }).parameters ?? [];
          const query = parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
          return query.length > 0 ? [[`${method.toUpperCase()} ${path}`, query.sort()]] : [];
        }),
      ),
    );
    expect(documented).toEqual(driven);

    const schemas = document.components.schemas as Record<string, Schema>;
    const answers: [string, unknown][] = [
      ['RefundPage', refunds.data!.data],
      ['TransactionPage', listed.data!.data],
      ['TransactionPage', next.data!.data],
      ['TransactionResponse', one.data!.data],
      ['OutletPageResponse', outlets.data!.data],
      ['DeliveryPageResponse', deliveries.data!.data],
    ];
    for (const [name, data] of answers) {
      expect([name, undocumentedFields(data, { $ref: name }, schemas)]).toEqual([name, []]);
    }
  });

  it('drives the API through the typed client', async () => {
    const partner = createPartner('Typed Client Partner');
    const api = createClient<paths>({
      baseUrl: `http://127.0.0.1:${appPorts['checkout-gateway']}`,
      headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret },
    });
    const created = await api.POST('/payin/charge/requests', {
      body: { amount: '250000', accountName: 'Typed Shop', paymentMethod: ['card'] },
    });
    expect(created.response.status).toBe(200);
    const reference = created.data!.data.reference;
    const read = await api.GET('/payin/charge/requests/{reference}', { params: { path: { reference } } });
    expect(read.data!.data).toMatchObject({ reference, amount: '250000', transactionStatus: 'PROCESSING' });
    const refused = await api.POST('/business/keys/roll', { body: { gracePeriodHours: 73 } });
    expect(refused.response.status).toBe(422);
  });
});
