import {
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  deliveryStatuses,
  WebhookEndpointDetailResponse,
} from '@payments/contracts';

import { escapeHtml } from '../hosted-page/page-html';
import { bar, hidden, layout, problem, renderProblemPage } from './dashboard-layout';
import { Member } from './members.repository';

function when(instant: string | null): string {
  return instant
    ? `<time datetime="${escapeHtml(instant)}">${escapeHtml(instant.slice(0, 19).replace('T', ' '))}</time>`
    : '—';
}

/**
 * A receiver's URL as every member may see it: its origin and path, without credentials or a
 * query, which often carries a token only the integration's developers should hold.
 */
export function shownUrl(url: string | null): string {
  if (!url) return '—';
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '—';
  }
}

function deliveryLink(delivery: Pick<DeliveryResponse, 'deliveryId'>): string {
  return `/dashboard/webhooks/deliveries/${encodeURIComponent(delivery.deliveryId)}`;
}

/** Endpoints as a reader may see them: where events go and whether they are sent, never the signing secrets. */
function endpoints(items: WebhookEndpointDetailResponse[] | undefined): string {
  if (!items) return '<p class="error" role="status">Endpoints cannot be read right now.</p>';
  if (!items.length) return '<p class="muted">No endpoint yet: events wait until one is set.</p>';
  const rows = items
    .map(
      (endpoint) =>
        `<tr><td><code>${escapeHtml(shownUrl(endpoint.url))}</code></td><td>${escapeHtml(endpoint.status)}${endpoint.disabledReason ? ` <span class="muted">(${escapeHtml(endpoint.disabledReason)})</span>` : ''}</td></tr>`,
    )
    .join('\n');
  return `<div class="table-wrap" role="region" aria-labelledby="endpoints" tabindex="0">
<table><thead><tr><th scope="col">URL</th><th scope="col">Status</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</div>`;
}

/** Deliveries newest first, with their endpoints; developers and owners may send a test event. */
export function renderWebhooks(
  page: {
    member: Member;
    formToken: string;
    status: string;
    deliveries?: DeliveryPageResponse;
    endpoints?: WebhookEndpointDetailResponse[];
    manage: boolean;
    problem?: string;
  },
  version: string,
): string {
  const { deliveries } = page;
  const rows = (deliveries?.items ?? [])
    .map(
      (delivery) =>
        `<tr><td>${when(delivery.createdAt)}</td><td><a href="${deliveryLink(delivery)}">${escapeHtml(delivery.event)}</a></td><td>${escapeHtml(delivery.status)}</td><td>${delivery.attempts}</td><td>${delivery.lastStatusCode ?? '—'}</td></tr>`,
    )
    .join('\n');
  const options = [`<option value="">Any status</option>`]
    .concat(
      deliveryStatuses.map(
        (status) => `<option value="${status}"${status === page.status ? ' selected' : ''}>${status}</option>`,
      ),
    )
    .join('');
  const pages = deliveries ? Math.max(1, Math.ceil(deliveries.total / deliveries.limit)) : 1;
  const next =
    deliveries && deliveries.page < pages
      ? `<a class="button quiet" href="/dashboard/webhooks?${escapeHtml(new URLSearchParams({ ...(page.status ? { status: page.status } : {}), page: String(deliveries.page + 1) }).toString())}">Older deliveries</a>`
      : '';
  const test = page.manage
    ? `<form method="post" action="/dashboard/webhooks/test">${hidden(page.formToken)}<button class="quiet" type="submit">Send a test event</button></form>`
    : '';
  const list = !deliveries
    ? ''
    : deliveries.items.length
      ? `<div class="table-wrap" role="region" aria-labelledby="deliveries" tabindex="0">
<table><thead><tr><th scope="col">Created (UTC)</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</div>
${next}`
      : '<p id="none">No deliveries match.</p>';
  return layout(
    'Webhooks',
    `${bar(page.member, page.formToken)}
<main>
<section class="card" aria-labelledby="endpoints">
<h1 id="endpoints">Webhook endpoints</h1>
${endpoints(page.endpoints)}
${test}
</section>
<section class="card" aria-labelledby="deliveries">
<h2 id="deliveries">Deliveries</h2>
${problem(page.problem)}
<form method="get" action="/dashboard/webhooks" class="filters">
<div><label for="status">Status</label><select id="status" name="status">${options}</select></div>
<div><button type="submit">Filter</button></div>
</form>
${list}
</section>
</main>`,
    version,
  );
}

/** One delivery and each attempt: when, the answer's status, how long it took, and what the receiver said. */
export function renderDelivery(
  page: { member: Member; formToken: string; delivery: DeliveryDetailResponse; manage: boolean; problem?: string },
  version: string,
): string {
  const { delivery } = page;
  const attempts = delivery.attemptLog
    .map(
      (attempt) =>
        `<tr><td>${attempt.attempt}</td><td>${when(attempt.startedAt)}</td><td>${attempt.statusCode ?? '—'}</td><td>${attempt.latencyMs} ms</td><td><code>${escapeHtml(attempt.error ?? attempt.responseBody ?? '')}</code></td></tr>`,
    )
    .join('\n');
  const fields: [string, string][] = [
    ['Event', escapeHtml(delivery.event)],
    ['Event id', `<code>${escapeHtml(delivery.eventId)}</code>`],
    ['Status', escapeHtml(delivery.status)],
    ['Sent to', `<code>${escapeHtml(shownUrl(delivery.url))}</code>`],
    ['Kind', escapeHtml(delivery.target)],
    ['Next attempt (UTC)', when(delivery.nextAttemptAt)],
    ['Created (UTC)', when(delivery.createdAt)],
  ];
  const replay = page.manage
    ? `<form method="post" action="${deliveryLink(delivery)}/replay">${hidden(page.formToken)}<button type="submit">Send it again</button></form>`
    : '';
  return layout(
    `Delivery ${delivery.deliveryId}`,
    `${bar(page.member, page.formToken)}
<main>
<section class="card" aria-labelledby="title">
<h1 id="title">Delivery of ${escapeHtml(delivery.event)}</h1>
${problem(page.problem)}
<dl class="details">
${fields.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('\n')}
</dl>
${replay}
<p><a href="/dashboard/webhooks">All deliveries</a></p>
</section>
<section class="card" aria-labelledby="attempts">
<h2 id="attempts">Attempts</h2>
${
  delivery.attemptLog.length
    ? `<div class="table-wrap" role="region" aria-labelledby="attempts" tabindex="0">
<table><thead><tr><th scope="col">#</th><th scope="col">Started (UTC)</th><th scope="col">Status</th><th scope="col">Latency</th><th scope="col">Answer</th></tr></thead>
<tbody>
${attempts}
</tbody></table>
</div>`
    : '<p class="muted">Not attempted yet.</p>'
}
</section>
</main>`,
    version,
  );
}

/** A delivery that is not the business's, or cannot be read now. */
export function renderDeliveryProblem(
  page: { member: Member; formToken: string; title: string; problem: string },
  version: string,
): string {
  return renderProblemPage({ ...page, back: { href: '/dashboard/webhooks', label: 'All deliveries' } }, version);
}
