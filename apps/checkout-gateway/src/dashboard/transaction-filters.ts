import { FieldError, TransactionsExportQuery, TransactionsQuery } from '@payments/contracts';
import { ValidationFailedError } from '@payments/platform-envelope';

import { validated } from './validated-query';

/** The filters as the transactions page's form sends them: days (UTC) rather than instants. */
export interface FilterForm {
  status: string;
  productType: string;
  reference: string;
  outletId: string;
  /** YYYY-MM-DD, the first day shown. */
  from: string;
  /** YYYY-MM-DD, the last day shown. */
  to: string;
}

/** Transactions per page of the dashboard's list. */
export const dashboardPageSize = 25;

/** How far back an export reaches when the filters name no days. */
const exportDefaultDays = 31;

const formFields = ['status', 'productType', 'reference', 'outletId', 'from', 'to'] as const;
const day = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 86_400_000;

/** The form's fields from a query string: each a single text, else empty (and refused below when repeated). */
export function filterForm(query: unknown): { form: FilterForm; repeated: string[] } {
  const values = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const repeated = formFields.filter((field) => values[field] !== undefined && typeof values[field] !== 'string');
  const text = (field: (typeof formFields)[number]) => {
    const value = values[field];
    return typeof value === 'string' ? value.trim() : '';
  };
  return {
    form: Object.fromEntries(formFields.map((field) => [field, text(field)])) as unknown as FilterForm,
    repeated,
  };
}

/**
 * The list's query, validated as GET /transactions validates its own, so that the page and the
 * API filter alike; a ValidationFailedError names what is wrong.
 */
export function listQuery(query: unknown, cursor: unknown): { form: FilterForm; query: TransactionsQuery } {
  const { form, repeated } = filterForm(query);
  const plain = {
    ...common(form, repeated),
    ...(typeof cursor === 'string' && cursor !== '' ? { cursor } : {}),
    limit: String(dashboardPageSize),
  };
  return { form, query: validated(TransactionsQuery, plain) };
}

/** The export's query: the filters' days, or the last month when they name none. */
export function exportQuery(query: unknown, today = new Date()): TransactionsExportQuery {
  const { form, repeated } = filterForm(query);
  const tomorrow = startOfDay(today).getTime() + dayMs;
  const plain = {
    from: new Date(tomorrow - exportDefaultDays * dayMs).toISOString(),
    to: new Date(tomorrow).toISOString(),
    ...common(form, repeated),
  };
  return validated(TransactionsExportQuery, plain);
}

/** The form's filters as the API names them; days become the instants that bound them. */
function common(form: FilterForm, repeated: string[]): Record<string, string> {
  const refused: FieldError[] = repeated.map((field) => ({ field, messages: [`${field} must be given once`] }));
  const instant = (field: 'from' | 'to', dayAfter: boolean) => {
    const text = form[field];
    if (text === '') return undefined;
    const start = dayStart(text);
    if (start === undefined) {
      refused.push({ field, messages: [`${field} must be a date, such as 2026-11-27`] });
      return undefined;
    }
    return new Date(start + (dayAfter ? dayMs : 0)).toISOString();
  };
  const plain: Record<string, string | undefined> = {
    status: form.status || undefined,
    productType: form.productType || undefined,
    reference: form.reference || undefined,
    outletId: form.outletId || undefined,
    from: instant('from', false),
    to: instant('to', true),
  };
  if (refused.length > 0) {
    throw new ValidationFailedError(refused);
  }
  return Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== undefined)) as Record<string, string>;
}

/** A calendar day's first instant (UTC), or undefined for text that is not a real day. */
function dayStart(text: string): number | undefined {
  const parts = day.exec(text);
  if (!parts) return undefined;
  const [year, month, date] = parts.slice(1).map(Number);
  const start = Date.UTC(year, month - 1, date);
  // Date.UTC rolls 2026-02-31 over into March (and month 13 into January): a day it rolled is not one the calendar has.
  return new Date(start).toISOString().startsWith(text) && year >= 2000 ? start : undefined;
}

function startOfDay(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));
}
