import { stdSerializers } from 'pino';

const redacted = '[redacted]';
/** Shorter values are left in: they could not be told from the words and line numbers around them. */
const shortestRedacted = 4;

/**
 * pino's error serializer, without the values of a failed query: a statement's parameters can
 * be an API key or card data. TypeORM's QueryFailedError carries them as `parameters`;
 * PostgreSQL quotes them back in its message (`invalid input syntax for type integer: "…"`)
 * and row values in its `detail` (`Key (key)=(…) already exists`, `Failing row contains (…)`).
 * So `parameters` and a database error's `detail` are left out, and every parameter value is
 * cut out of what is left (message, stack, where); the statement stays: it has placeholders.
 */
export function errorWithoutQueryValues(err: unknown): unknown {
  if (typeof err !== 'object' || err === null) return err;
  // Through pino-http the error comes serialized by pino already, the original as `raw`.
  const serialized = 'raw' in err ? err : stdSerializers.err(err as Error);
  const values = queryValuesOf((serialized as { raw?: unknown }).raw ?? err, 0);
  return scrubbed(
    serialized,
    [...new Set(values)].sort((a, b) => b.length - a.length),
  );
}

/** The parameters of every failed query in the error, its causes and the driver's error. */
function queryValuesOf(error: unknown, depth: number): string[] {
  if (typeof error !== 'object' || error === null || depth > 5) return [];
  const { parameters, driverError, cause, errors } = error as Record<string, unknown>;
  const nested = [driverError, cause, ...(Array.isArray(errors) ? errors : [])];
  return [
    ...(Array.isArray(parameters) ? parameters.flatMap((value) => textsOf(value, 0)) : []),
    ...nested.flatMap((inner) => queryValuesOf(inner, depth + 1)),
  ];
}

/** A parameter's text, and each text inside it when it is JSON (a jsonb argument). */
function textsOf(value: unknown, depth: number): string[] {
  if (depth > 5) return [];
  if (typeof value === 'string') {
    if (value.length < shortestRedacted) return [];
    return [value, ...(/^\s*[[{]/.test(value) ? textsOf(parsedJson(value), depth + 1) : [])];
  }
  if (typeof value !== 'object' || value === null || value instanceof Date) return [];
  return Object.values(value).flatMap((inner) => textsOf(inner, depth + 1));
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A copy without the values; the error and whatever it refers to are left as they are. */
function scrubbed(node: unknown, values: string[], depth = 0): unknown {
  if (typeof node === 'string') return values.reduce((text, value) => text.split(value).join(redacted), node);
  if (typeof node !== 'object' || node === null || node instanceof Date || depth > 5) return node;
  if (Array.isArray(node)) return node.map((item) => scrubbed(item, values, depth + 1));
  const isDatabaseError = 'severity' in node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'parameters' && !(isDatabaseError && key === 'detail'))
      .map(([key, value]) => [key, scrubbed(value, values, depth + 1)]),
  );
}
