/** A page's placeholders (`we_01JD…`) and the values the platform answered in their place. */
export type Learned = Map<string, string>;

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** An id the platform makes: 26 Crockford base-32 characters, after a prefix (`CHK-`, `we_`) or none. */
const ulid = /^([A-Za-z]+[-_])?[0-9A-HJKMNP-TV-Z]{26}$/;
const accountNumber = /^\d{10}$/;

/**
 * Whether a string the page shows stands for a value of the run (an id, a time, an account
 * number, or a key, secret, link or cursor cut short with `…`) rather than a fixed one.
 */
export const standsForRunValue = (shown: string) =>
  shown.includes('…') || [isoTimestamp, ulid, accountNumber].some((pattern) => pattern.test(shown));

/**
 * Whether `actual` is a value of the kind `shown` stands for: a time for a time, an id with the
 * same prefix for an id, an account number for one; for a value cut short, one that starts as
 * the page's does up to its last separator (`CHK-`, `whsec_`, a link up to its last `-`) and
 * goes on.
 */
function ofTheKindShown(shown: string, actual: string): boolean {
  if (shown.includes('…')) {
    const fixed = shown.slice(0, shown.indexOf('…')).replace(/[A-Za-z0-9]*$/, '');
    return actual.startsWith(fixed) && actual.length > fixed.length;
  }
  if (isoTimestamp.test(shown)) return isoTimestamp.test(actual);
  if (ulid.test(shown)) return ulid.test(actual) && actual.startsWith(ulid.exec(shown)![1] ?? '');
  return accountNumber.test(actual);
}

/**
 * How an answer differs from what a page shows of it: every field the page shows must be there;
 * fixed values (statuses, codes, messages, amounts) must be equal, and lists too, whole, but for
 * a page of results, whose first items a page may show. A string that stands for a run value
 * must be a value of that kind, and is learned: later examples of the page that name it mean
 * the answered value. Empty when they agree.
 */
export function differences(shown: unknown, actual: unknown, learned: Learned, path = 'answer'): string[] {
  const differ = () => [`${path}: the page shows ${JSON.stringify(shown)}, the answer has ${JSON.stringify(actual)}`];
  if (typeof shown === 'string' && standsForRunValue(shown)) {
    if (typeof actual !== 'string' || !ofTheKindShown(shown, actual)) return differ();
    if (shown.length >= 6 && shown !== actual && !isoTimestamp.test(shown)) learned.set(shown, actual);
    return [];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${path}: the page shows a list, the answer has ${JSON.stringify(actual)}`];
    const sample = path.endsWith('.items');
    if (sample ? shown.length > actual.length : shown.length !== actual.length) {
      return [`${path}: the page shows ${shown.length} items, the answer has ${actual.length}`];
    }
    return shown.flatMap((item, index) => differences(item, actual[index], learned, `${path}[${index}]`));
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${path}: the page shows an object, the answer has ${JSON.stringify(actual)}`];
    }
    return Object.entries(shown).flatMap(([key, value]) =>
      key in actual
        ? differences(value, (actual as Record<string, unknown>)[key], learned, `${path}.${key}`)
        : [`${path}.${key}: shown on the page, missing from the answer`],
    );
  }
  return shown === actual ? [] : differ();
}
