import { escapeHtml } from '../hosted-page/page-html';
import { Member } from './members.repository';

/** The dashboard's pages, rendered on the server: no script, so forms work as they are. */
export const dashboardStylesheet = '/dashboard/assets/dashboard.css';

export function layout(title: string, body: string, stylesheetVersion: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} · Dashboard</title>
<link rel="stylesheet" href="${dashboardStylesheet}?v=${stylesheetVersion}" referrerpolicy="no-referrer">
</head>
<body>
${body}
</body>
</html>`;
}

export function hidden(formToken: string): string {
  return `<input type="hidden" name="_csrf" value="${escapeHtml(formToken)}">`;
}

export function problem(message: string | undefined): string {
  return message ? `<p class="error" role="alert" id="problem">${escapeHtml(message)}</p>` : '';
}

/** The bar atop a signed-in member's pages. */
export function bar(member: Member, formToken: string): string {
  return `<header class="bar">
<p>${escapeHtml(member.business_name)}</p>
<nav aria-label="Dashboard"><a href="/dashboard">Home</a> <a href="/dashboard/transactions">Transactions</a> <a href="/dashboard/webhooks">Webhooks</a> <a href="/dashboard/team">Team</a> <a href="/dashboard/security">Security</a></nav>
<form method="post" action="/dashboard/sign-out">${hidden(formToken)}<button class="quiet" type="submit">Sign out</button></form>
</header>`;
}

/** A page that says what went wrong, with the way back: the pages' one shape for a refusal or an absence. */
export function renderProblemPage(
  page: { member: Member; formToken: string; title: string; problem: string; back: { href: string; label: string } },
  version: string,
): string {
  return layout(
    page.title,
    `${bar(page.member, page.formToken)}
<main><section class="card" aria-labelledby="title">
<h1 id="title">${escapeHtml(page.title)}</h1>
${problem(page.problem)}
<p><a href="${escapeHtml(page.back.href)}">${escapeHtml(page.back.label)}</a></p>
</section></main>`,
    version,
  );
}
