import { RefundResponse, transactionProductTypes, TransactionResponse, transactionStatuses } from '@payments/contracts';

import { formatNaira } from '../hosted-page/naira';
import { escapeHtml } from '../hosted-page/page-html';
import { bar, layout, problem } from './dashboard-layout';
import { refundable } from './dashboard-refunds';
import { Member } from './members.repository';
import { paymentRefunds, refundForm } from './refunds-html';
import { FilterForm } from './transaction-filters';

/** A link's query string from the filters that are set (and more), so a page keeps its filters. */
export function filterQuery(form: Partial<FilterForm>, more: Record<string, string> = {}): string {
  const set = Object.entries({ ...form, ...more }).filter(([, value]) => value !== undefined && value !== '');
  return set.length ? `?${new URLSearchParams(set as [string, string][]).toString()}` : '';
}

function options(values: readonly string[], selected: string, anyLabel: string): string {
  return [`<option value="">${anyLabel}</option>`]
    .concat(
      values.map(
        (value) =>
          `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(value)}</option>`,
      ),
    )
    .join('');
}

function when(instant: string): string {
  return `<time datetime="${escapeHtml(instant)}">${escapeHtml(instant.slice(0, 16).replace('T', ' '))}</time>`;
}

/** The history, newest first, with the API's filters and a link to the next page. */
export function renderTransactions(
  page: {
    member: Member;
    formToken: string;
    form: FilterForm;
    items: TransactionResponse[];
    nextCursor: string | null;
    problem?: string;
  },
  version: string,
): string {
  const { form } = page;
  const rows = page.items
    .map((item) => {
      const link = `/dashboard/transactions/${encodeURIComponent(item.reference)}${filterQuery({}, { productType: item.productType })}`;
      return `<tr><td>${when(item.createdAt)}</td><td><a href="${escapeHtml(link)}">${escapeHtml(item.reference)}</a></td><td>${escapeHtml(item.productType)}</td><td>${escapeHtml(item.transactionStatus)}</td><td class="amount">${item.transactionType === 'DEBIT' ? '−' : ''}${formatNaira(item.amount)}</td></tr>`;
    })
    .join('\n');
  const table = page.items.length
    ? `<div class="table-wrap" role="region" aria-labelledby="history" tabindex="0">
<table>
<thead><tr><th scope="col">Date (UTC)</th><th scope="col">Reference</th><th scope="col">Product</th><th scope="col">Status</th><th scope="col">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>`
    : '<p id="none">No transactions match these filters.</p>';
  const next = page.nextCursor
    ? `<a class="button quiet" href="${escapeHtml(`/dashboard/transactions${filterQuery(form, { cursor: page.nextCursor })}`)}">Older transactions</a>`
    : '';
  return layout(
    'Transactions',
    `${bar(page.member, page.formToken)}
<main>
<section class="card" aria-labelledby="filters">
<h1 id="filters">Transactions</h1>
${problem(page.problem)}
<form method="get" action="/dashboard/transactions" class="filters">
<div><label for="status">Status</label><select id="status" name="status">${options(transactionStatuses, form.status, 'Any status')}</select></div>
<div><label for="productType">Product</label><select id="productType" name="productType">${options(transactionProductTypes, form.productType, 'Any product')}</select></div>
<div><label for="reference">Reference</label><input id="reference" name="reference" maxlength="100" value="${escapeHtml(form.reference)}"></div>
<div><label for="outletId">Outlet</label><input id="outletId" name="outletId" maxlength="64" value="${escapeHtml(form.outletId)}"></div>
<div><label for="from">From (UTC)</label><input id="from" name="from" type="date" value="${escapeHtml(form.from)}"></div>
<div><label for="to">To (UTC)</label><input id="to" name="to" type="date" value="${escapeHtml(form.to)}"></div>
<div><button type="submit">Filter</button></div>
</form>
<p><a href="${escapeHtml(`/dashboard/transactions/export${filterQuery(form)}`)}" download>Download CSV</a> <span class="muted">(the dates above, or the last month)</span></p>
</section>
<section class="card" aria-labelledby="history">
<h2 id="history">History</h2>
${table}
${next}
</section>
</main>`,
    version,
  );
}

/** One transaction: what was paid, what the platform kept, what the business got; for those who may refund it, the form that starts one. */
export function renderTransaction(
  page: {
    member: Member;
    formToken: string;
    item: TransactionResponse;
    refund: boolean;
    /** The payment's refunds, for a payment that can have some; undefined when they cannot be read. */
    refunds: RefundResponse[] | undefined;
  },
  version: string,
): string {
  const { item } = page;
  const fields: [string, string][] = [
    ['Status', escapeHtml(item.transactionStatus)],
    ['Product', escapeHtml(item.productType)],
    ['Type', item.transactionType === 'DEBIT' ? 'Debit' : 'Credit'],
    ['Amount', formatNaira(item.amount)],
    ['Fee', formatNaira(item.fee)],
    ['Commission', formatNaira(item.commission)],
    ['Net amount', formatNaira(item.netAmount)],
    ['Account', escapeHtml(item.transactionAccount)],
    ['Outlet', escapeHtml(item.outletId ?? '—')],
    ['Session', escapeHtml(item.sessionId ?? '—')],
    ['Customer reference', escapeHtml(item.customerReference ?? '—')],
    ['Comment', escapeHtml(item.comment ?? '—')],
    ['Last event', escapeHtml(item.event)],
    ['Created (UTC)', when(item.createdAt)],
    ['Updated (UTC)', when(item.updatedAt)],
  ];
  return layout(
    `Transaction ${item.reference}`,
    `${bar(page.member, page.formToken)}
<main>
<section class="card" aria-labelledby="title">
<h1 id="title">Transaction <code>${escapeHtml(item.reference)}</code></h1>
<dl class="details">
${fields.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('\n')}
</dl>
<p><a href="/dashboard/transactions">All transactions</a></p>
</section>
${refundable(item) ? paymentRefunds(page.refunds) : ''}
${page.refund ? refundForm(item, page.formToken) : ''}
</main>`,
    version,
  );
}

/** No transaction of this business has that reference: the same page whether another business has one or none does. */
export function renderTransactionMissing(page: { member: Member; formToken: string }, version: string): string {
  return layout(
    'Transaction not found',
    `${bar(page.member, page.formToken)}
<main><section class="card" aria-labelledby="title">
<h1 id="title">Transaction not found</h1>
<p>No transaction of ${escapeHtml(page.member.business_name)} has that reference. <a href="/dashboard/transactions">All transactions</a></p>
</section></main>`,
    version,
  );
}
