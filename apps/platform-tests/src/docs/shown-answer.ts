/** A page's placeholders (`we_01JD…`) and the values the platform answered in their place. */
export type Learned = Map<string, string>;

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Values that differ on every run: ULIDs with or without a prefix, account numbers, secrets and cursors shown cut short. */
const runValue = [/…/, isoTimestamp, /^([A-Za-z]+[-_])?[0-9A-HJKMNP-TV-Z]{26}$/, /^\d{10}$/];

/** Whether a string the page shows stands for a value of the run (an id, a time) rather than a fixed one. */
export const standsForRunValue = (shown: string) => runValue.some((pattern) => pattern.test(shown));

/**
 * How an answer differs from what a page shows of it: every field the page shows must be there,
 * of the same type; fixed values (statuses, codes, messages, amounts, lists of errors) must be
 * equal. A string that stands for a run value only has to be a string, and is learned: later
 * examples of the page that name it mean the answered value. Empty when they agree.
 */
export function differences(shown: unknown, actual: unknown, learned: Learned, path = 'answer'): string[] {
  if (typeof shown === 'string' && typeof actual === 'string' && standsForRunValue(shown)) {
    if (shown.length >= 6 && shown !== actual && !isoTimestamp.test(shown)) learned.set(shown, actual);
    return [];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${path}: the page shows a list, the answer has ${JSON.stringify(actual)}`];
    if (shown.length > actual.length) {
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
  return shown === actual
    ? []
    : [`${path}: the page shows ${JSON.stringify(shown)}, the answer has ${JSON.stringify(actual)}`];
}
