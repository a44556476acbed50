import { RefundResponse, TransactionResponse } from '@payments/contracts';

import { formatNaira } from '../hosted-page/naira';
import { escapeHtml } from '../hosted-page/page-html';
import { bar, hidden, layout, problem, renderProblemPage } from './dashboard-layout';
import { RefundConfirmation } from './dashboard-refunds';
import { Member } from './members.repository';

/** A payment's refunds so far (undefined: the ledger did not answer), so nobody refunds twice unawares. */
export function paymentRefunds(refunds: RefundResponse[] | undefined): string {
  const rows = (refunds ?? [])
    .map(
      (refund) =>
        `<li><a href="/dashboard/refunds/${encodeURIComponent(refund.reference)}">${formatNaira(refund.amount)}</a> ${escapeHtml(refund.status)} <span class="muted">${escapeHtml(refund.createdAt.slice(0, 16).replace('T', ' '))} UTC</span></li>`,
    )
    .join('\n');
  const body =
    refunds === undefined
      ? '<p class="error" role="status">This payment\'s refunds cannot be read right now.</p>'
      : refunds.length
        ? `<ul id="payment-refunds">\n${rows}\n</ul>`
        : '<p class="muted">None yet.</p>';
  return `<section class="card" aria-labelledby="refunds-so-far">
<h2 id="refunds-so-far">Refunds of this payment</h2>
${body}
</section>`;
}

/** The first step of a refund, on a payment's page: how much, and why. */
export function refundForm(item: TransactionResponse, formToken: string): string {
  return `<section class="card" aria-labelledby="refund">
<h2 id="refund">Refund</h2>
<form method="post" action="/dashboard/transactions/${encodeURIComponent(item.reference)}/refund">${hidden(formToken)}
<label for="amount">Amount in naira (leave it empty to refund all that is left)</label>
<input id="amount" name="amount" inputmode="decimal" maxlength="24" autocomplete="off">
<label for="reason">Reason (optional)</label>
<input id="reason" name="reason" maxlength="200" autocomplete="off">
<button type="submit">Review the refund</button>
</form>
</section>`;
}

/** The second step: what will happen, said once more, and the one button that does it. */
export function renderRefundConfirmation(
  page: {
    member: Member;
    formToken: string;
    confirmation: RefundConfirmation;
    refunds: RefundResponse[] | undefined;
    problem?: string;
  },
  version: string,
): string {
  const { confirmation } = page;
  const what = confirmation.amount ? formatNaira(confirmation.amount) : 'all that is left';
  return layout(
    'Confirm the refund',
    `${bar(page.member, page.formToken)}
<main><section class="card" aria-labelledby="title">
<h1 id="title">Refund ${escapeHtml(what)} of <code>${escapeHtml(confirmation.reference)}</code>?</h1>
${problem(page.problem)}
<p>The money goes back to the payer and cannot be taken back. It is held from your balance now.</p>
${confirmation.reason ? `<p>Reason: ${escapeHtml(confirmation.reason)}</p>` : ''}
<form method="post" action="/dashboard/refunds">${hidden(page.formToken)}
${(['reference', 'amount', 'reason', 'key', 'seal'] as const)
  .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(confirmation[name])}">`)
  .join('\n')}
<button class="danger-fill" type="submit">Refund ${escapeHtml(what)}</button>
</form>
<p><a href="/dashboard/transactions/${encodeURIComponent(confirmation.reference)}">Cancel</a></p>
</section>
${paymentRefunds(page.refunds)}
</main>`,
    version,
  );
}

/** A refund as the API describes it. */
export function renderRefund(
  page: { member: Member; formToken: string; refund: RefundResponse },
  version: string,
): string {
  const { refund } = page;
  const fields: [string, string][] = [
    ['Status', escapeHtml(refund.status)],
    ['Amount', formatNaira(refund.amount)],
    [
      'Payment',
      `<a href="/dashboard/transactions/${encodeURIComponent(refund.transactionReference)}">${escapeHtml(refund.transactionReference)}</a>`,
    ],
    ['Product', escapeHtml(refund.productType)],
    ['Reason', escapeHtml(refund.reason ?? '—')],
    ['Created (UTC)', escapeHtml(refund.createdAt.slice(0, 16).replace('T', ' '))],
  ];
  return layout(
    `Refund ${refund.reference}`,
    `${bar(page.member, page.formToken)}
<main><section class="card" aria-labelledby="title">
<h1 id="title">Refund <code>${escapeHtml(refund.reference)}</code></h1>
<dl class="details">
${fields.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('\n')}
</dl>
<p class="muted">A refund is PENDING while its money is on its way, then PROCESSED, or FAILED with the amount released.</p>
</section></main>`,
    version,
  );
}

/** A refund that was not made, or cannot be shown, and why. */
export function renderRefundProblem(
  page: { member: Member; formToken: string; title: string; reference?: string; problem: string },
  version: string,
): string {
  const back = page.reference
    ? { href: `/dashboard/transactions/${encodeURIComponent(page.reference)}`, label: 'Back to the payment' }
    : { href: '/dashboard/transactions', label: 'All transactions' };
  return renderProblemPage({ ...page, back }, version);
}
