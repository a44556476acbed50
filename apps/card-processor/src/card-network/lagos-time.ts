/** Nigeria keeps West Africa Time all year: UTC+1, no daylight saving. */
export const lagosOffsetMs = 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

/** The Lagos calendar date of a moment, YYYY-MM-DD. */
export function lagosDate(at: Date): string {
  return new Date(at.getTime() + lagosOffsetMs).toISOString().slice(0, 10);
}

/** A Lagos calendar date's first moment and the next date's, as instants. */
export function lagosDay(day: string): { start: Date; end: Date } {
  const start = new Date(Date.parse(`${day}T00:00:00Z`) - lagosOffsetMs);
  return { start, end: new Date(start.getTime() + dayMs) };
}
