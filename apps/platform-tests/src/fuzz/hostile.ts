import fc from 'fast-check';

/**
 * Hostile input for the HTTP fuzz: values a careless or malicious client sends, and bodies
 * and headers built from them. Everything here is a fast-check arbitrary, so a failing request
 * shrinks and replays from its seed.
 */

/** Strings that have broken parsers, databases or loggers somewhere. */
const nastyStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u0041',
  '\r\n\r\nHTTP/1.1 200 OK',
  '\u001b[31m',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '%00',
  '%s%s%s%n',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '０１２３',
  '2025-02-30',
  '9999-12-31T23:59:59.999Z',
];

const amounts = [
  '0',
  '-1',
  '-150000',
  '1.5',
  '1e5',
  ' 100',
  '100 ',
  '+100',
  '0x10',
  '99999999999999999999999999',
  '１００',
];

/**
 * Any UTF-16 code unit, as a JSON string can carry it: controls, noncharacters, and surrogates
 * alone or in either order, which `\\uD800`-style escapes allow even though they are no text.
 */
const anyCodeUnit: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
);

/** Text made of any code units: every kind of code point JSON allows, paired or not. */
const anyCodeUnits: fc.Arbitrary<string> = fc.string({ unit: anyCodeUnit, maxLength: 32 });

/** A plausible value with one code unit of any kind put in at any place, so it gets past format checks' first glance. */
function withStrayCodeUnit(plausible: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: plausible },
    {
      weight: 1,
      arbitrary: fc
        .tuple(plausible, anyCodeUnit, fc.nat())
        .map(([text, unit, at]) => text.slice(0, at % (text.length + 1)) + unit + text.slice(at % (text.length + 1))),
    },
  );
}

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings, ...amounts) },
  { weight: 3, arbitrary: anyCodeUnits },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 32 }) },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 20_000 }).map((length) => 'A'.repeat(length)) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 1e308, -1e308, 2 ** 53 + 2, 1e-7, 0.1),
);

/** Deep nesting, up to a thousand levels (deeper still comes as raw text, see bodyBytes). */
export const deeplyNested: fc.Arbitrary<unknown> = fc.integer({ min: 1, max: 1_000 }).chain((depth) =>
  fc.constantFrom('array', 'object').map((kind) => {
    let value: unknown = 'bottom';
    for (let level = 0; level < depth; level += 1) value = kind === 'array' ? [value] : { a: value };
    return value;
  }),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 4 }) },
  { weight: 1, arbitrary: deeplyNested },
);

/** An OpenAPI schema, as much of it as the generator reads. */
export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  maxLength?: number;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

/**
 * A value the schema would mostly accept, with a hostile value in any field: plausible input
 * gets past the first checks, so the hostile parts reach the rules and the database behind them.
 */
export function schemaValue(schema: Schema, components: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, components);
  const plausible = plausibleValue(resolved, components, depth);
  return fc.oneof({ weight: 4, arbitrary: plausible }, { weight: 1, arbitrary: hostileValue });
}

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  if (schema.$ref) return resolve(components[schema.$ref.split('/').pop()!] ?? {}, components);
  const first = schema.allOf?.[0] ?? schema.oneOf?.[0] ?? schema.anyOf?.[0];
  return first
    ? resolve({ ...first, ...schema, allOf: undefined, oneOf: undefined, anyOf: undefined }, components)
    : schema;
}

function plausibleValue(schema: Schema, components: Record<string, Schema>, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if (schema.properties && depth < 4) {
    const fields = Object.fromEntries(
      Object.entries(schema.properties).map(([name, field]) => [name, schemaValue(field, components, depth + 1)]),
    );
    // Any subset of the fields, now and then with one the schema does not know.
    return fc
      .tuple(fc.record(fields, { requiredKeys: [] }), fc.option(fc.tuple(hostileString, hostileValue), { freq: 6 }))
      .map(([record, extra]) => (extra ? { ...record, [extra[0]]: extra[1] } : record));
  }
  switch (schema.type) {
    case 'string':
      return withStrayCodeUnit(plausibleString(schema));
    case 'integer':
      return fc.integer({ min: 0, max: 200 });
    case 'number':
      return fc.integer({ min: 0, max: 1_000_000 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items && depth < 4 ? schemaValue(schema.items, components, depth + 1) : hostileValue, {
        maxLength: 3,
      });
    default:
      return hostileValue;
  }
}

function plausibleString(schema: Schema): fc.Arbitrary<string> {
  if (schema.pattern?.includes('[1-9][0-9]')) return fc.integer({ min: 1, max: 10_000_000 }).map(String);
  if (schema.format === 'email') return fc.constantFrom('customer@example.com', 'ada.obi+test@mail.example.ng');
  if (schema.format === 'date' || schema.format === 'date-time') {
    return fc.constantFrom('2026-01-31', '2026-01-31T10:00:00Z', '2026-W05', '20260131', '2026-031');
  }
  if (schema.format === 'uri' || schema.format === 'url') {
    return fc.constantFrom('https://example.com/hook', 'http://127.0.0.1:1/');
  }
  return fc.string({ maxLength: Math.min(schema.maxLength ?? 40, 40) });
}

/** The bytes of a body: JSON built from the value, or something that is not JSON at all. */
export function bodyBytes(value: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer | undefined> {
  return fc.oneof(
    { weight: 8, arbitrary: value.map((body) => Buffer.from(JSON.stringify(body) ?? 'null')) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '{"a":', '[1,2', 'null', '""', '1e999', '{"__proto__":{"polluted":1}}', '\ufeff{}')
        .map((text) => Buffer.from(text)),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => Buffer.from('['.repeat(depth) + ']'.repeat(depth))),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1, max: 10_000 })
        .map((depth) => Buffer.from('{"a":'.repeat(depth) + '1' + '}'.repeat(depth))),
    },
    // Past the 64 KiB body limit.
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 65 * 1024, max: 300 * 1024 })
        .map((size) => Buffer.from(JSON.stringify({ accountName: 'x'.repeat(size) }))),
    },
    { weight: 1, arbitrary: fc.constant(Buffer.from([0xc0, 0x80, 0xff, 0xfe, 0x7b, 0x7d])) },
  );
}

const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/octet-stream',
  '*/*',
  ';;;',
];

/** Header values a client can put on the wire (visible ASCII and Latin-1). */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 80 }),
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 20 }),
  fc.integer({ min: 100, max: 7_000 }).map((length) => 'h'.repeat(length)),
);

export interface Credentials {
  'x-api-key': string;
  'x-api-secret': string;
}

/** Headers: mostly a partner's real keys (so requests reach validation), else none, another's, or junk. */
export function hostileHeaders(valid: Credentials, other: Credentials): fc.Arbitrary<Record<string, string>> {
  const credentials = fc.oneof(
    { weight: 6, arbitrary: fc.constant<Record<string, string>>({ ...valid }) },
    { weight: 1, arbitrary: fc.constant<Record<string, string>>({ ...other }) },
    { weight: 1, arbitrary: fc.constant<Record<string, string>>({}) },
    { weight: 1, arbitrary: fc.record({ 'x-api-key': headerValue, 'x-api-secret': headerValue }) },
    {
      weight: 1,
      arbitrary: fc.constant<Record<string, string>>({
        'x-api-key': valid['x-api-key'],
        'x-api-secret': other['x-api-secret'],
      }),
    },
  );
  // Mostly JSON, so bodies reach validation; the rest tests the content-type checks.
  const contentType = fc.option(
    fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      { weight: 2, arbitrary: fc.constantFrom(...contentTypes) },
      { weight: 1, arbitrary: headerValue },
    ),
    { freq: 10 },
  );
  const known = fc.record(
    {
      'idempotency-key': headerValue,
      'x-request-id': headerValue,
      accept: fc.constantFrom('*/*', 'text/html', 'application/xml'),
      'content-encoding': fc.constantFrom('gzip', 'br', 'identity'),
    },
    { requiredKeys: [] },
  );
  const random = fc.dictionary(
    fc.stringMatching(/^x-[a-z0-9-]{1,30}$/).filter((name) => !name.startsWith('x-api-')),
    headerValue,
    { maxKeys: 4 },
  );
  return fc.tuple(credentials, contentType, known, random).map(([auth, type, extra, noise]) => ({
    ...noise,
    ...extra,
    ...auth,
    ...(type === null ? {} : { 'content-type': type }),
  }));
}

/** A path segment: a value the route knows, or bytes percent-encoded as a client might send them. */
export function pathSegment(known: string[]): fc.Arbitrary<string> {
  const encoded = hostileString.map((text) =>
    [...Buffer.from(text, 'utf8')]
      .map((byte) =>
        /[A-Za-z0-9_-]/.test(String.fromCharCode(byte))
          ? String.fromCharCode(byte)
          : `%${byte.toString(16).padStart(2, '0')}`,
      )
      .join(''),
  );
  return fc.oneof(
    { weight: 3, arbitrary: known.length ? fc.constantFrom(...known) : encoded },
    { weight: 2, arbitrary: encoded },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%ZZ', '%c0%80', '..', '%2e%2e', 'a%2Fb', '%00', 'CHK-'.padEnd(300, '9')),
    },
  );
}
