import { OutletPageResponse, TransactionResponse, WalletResponse } from '@payments/contracts';

import { formatNaira } from '../hosted-page/naira';
import { escapeHtml } from '../hosted-page/page-html';
import { CollectedTotal } from '../transactions/transactions.repository';
import { bar, hidden, layout } from './dashboard-layout';
import { Member } from './members.repository';
import { roleLabels } from './roles';

/** What the overview shows; balances are missing when outlet-service did not answer in time. */
export interface Overview {
  settlement?: WalletResponse;
  outlets?: OutletPageResponse;
  today: CollectedTotal[];
  week: CollectedTotal[];
  failed: TransactionResponse[];
}

function totals(id: string, title: string, collected: CollectedTotal[]): string {
  const sum = collected.reduce((total, row) => total + BigInt(row.amount), 0n);
  const rows = collected
    .map(
      (row) =>
        `<tr><td>${escapeHtml(row.productType)}</td><td>${row.count}</td><td class="amount">${formatNaira(row.amount)}</td></tr>`,
    )
    .join('\n');
  return `<section class="card" aria-labelledby="${id}">
<h2 id="${id}">${title}: ${formatNaira(sum.toString())}</h2>
${
  collected.length
    ? `<table><thead><tr><th scope="col">Product</th><th scope="col">Payments</th><th scope="col">Collected</th></tr></thead>
<tbody>
${rows}
</tbody></table>`
    : '<p class="muted">Nothing collected yet.</p>'
}
</section>`;
}

function balances(overview: Overview): string {
  if (!overview.settlement || !overview.outlets) {
    return `<section class="card" aria-labelledby="balances">
<h2 id="balances">Balances</h2>
<p class="error" role="status">Balances cannot be read right now. Reload the page in a moment.</p>
</section>`;
  }
  const wallet = (each: WalletResponse) => `<td class="amount">${formatNaira(each.availableBalance)}</td>`;
  const outlets = overview.outlets.items
    .map(
      (outlet) =>
        `<tr><td>${escapeHtml(outlet.accountName)}</td>${wallet(outlet.collectionWallet)}${wallet(outlet.depositWallet)}</tr>`,
    )
    .join('\n');
  const { total } = overview.outlets.meta;
  const more =
    total > overview.outlets.items.length
      ? `<p class="muted">The first ${overview.outlets.items.length} of ${total} outlets.</p>`
      : '';
  return `<section class="card" aria-labelledby="balances">
<h2 id="balances">Balances</h2>
<p>Settlement wallet: <strong id="settlement-available">${formatNaira(overview.settlement.availableBalance)}</strong> available, ${formatNaira(overview.settlement.ledgerBalance)} on the ledger.</p>
${
  overview.outlets.items.length
    ? `<div class="table-wrap" role="region" aria-labelledby="outlets" tabindex="0">
<table><caption id="outlets">Outlets, available balances</caption>
<thead><tr><th scope="col">Outlet</th><th scope="col">Collection</th><th scope="col">Deposit</th></tr></thead>
<tbody>
${outlets}
</tbody></table>
</div>
${more}`
    : '<p class="muted">No outlets yet.</p>'
}
</section>`;
}

function failedPayments(failed: TransactionResponse[]): string {
  const items = failed
    .map(
      (item) =>
        `<li><a href="/dashboard/transactions/${encodeURIComponent(item.reference)}?productType=${encodeURIComponent(item.productType)}">${escapeHtml(item.reference)}</a> <span class="muted">${escapeHtml(item.productType)}, ${formatNaira(item.amount)}</span></li>`,
    )
    .join('\n');
  return `<section class="card" aria-labelledby="failed">
<h2 id="failed">Failed payments, last 7 days</h2>
${failed.length ? `<ul>\n${items}\n</ul>\n<p><a href="/dashboard/transactions?status=FAILED">All failed payments</a></p>` : '<p class="muted">None.</p>'}
</section>`;
}

/** A member's home: who they are, the business's balances, what it collected, and what failed. */
export function renderOverview(
  page: { member: Member; formToken: string; overview: Overview },
  version: string,
): string {
  const { member, overview } = page;
  return layout(
    member.business_name,
    `${bar(member, page.formToken)}
<main>
<section class="card" aria-labelledby="you">
<h1 id="you">Signed in as ${escapeHtml(member.email)}</h1>
<p class="muted">${roleLabels[member.role]} of ${escapeHtml(member.business_name)}</p>
<form method="post" action="/dashboard/sign-out-everywhere">${hidden(page.formToken)}<button class="quiet" type="submit">Sign out everywhere</button></form>
</section>
${balances(overview)}
${totals('today', 'Collected today (UTC)', overview.today)}
${totals('week', 'Collected in the last 7 days', overview.week)}
${failedPayments(overview.failed)}
</main>`,
    version,
  );
}
