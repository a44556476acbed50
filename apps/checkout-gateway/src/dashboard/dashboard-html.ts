import { escapeHtml } from '../hosted-page/page-html';
import { bar, hidden, layout, problem } from './dashboard-layout';
import { invitationLifetimeDays, Member } from './members.repository';
import { MemberRole, memberRoles, roleLabels } from './roles';

export function renderSignIn(page: { formToken: string; problem?: string; email?: string }, version: string): string {
  return layout(
    'Sign in',
    `<main><section class="card narrow" aria-labelledby="title">
<h1 id="title">Sign in</h1>
${problem(page.problem)}
<form method="post" action="/dashboard/sign-in">
${hidden(page.formToken)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(page.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</section></main>`,
    version,
  );
}

export function renderSignUp(
  page: {
    formToken: string;
    invitation: string;
    businessName: string;
    email: string;
    role: MemberRole;
    problem?: string;
  },
  version: string,
): string {
  return layout(
    'Create your account',
    `<main><section class="card narrow" aria-labelledby="title">
<h1 id="title">Join ${escapeHtml(page.businessName)}</h1>
<p>You are invited as <strong>${roleLabels[page.role]}</strong>, signing in as <strong>${escapeHtml(page.email)}</strong>.</p>
${problem(page.problem)}
<form method="post" action="/dashboard/sign-up">
${hidden(page.formToken)}
<input type="hidden" name="invitation" value="${escapeHtml(page.invitation)}">
<input type="email" name="email" autocomplete="username" value="${escapeHtml(page.email)}" hidden readonly>
<label for="password">Password (at least 12 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="128" required>
<label for="confirmation">Password again</label>
<input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="12" maxlength="128" required>
<button type="submit">Create account</button>
</form>
</section></main>`,
    version,
  );
}

/** An invitation link that is unknown, used or expired: the same page for each. */
export function renderLinkUnusable(version: string): string {
  return layout(
    'Link no longer works',
    `<main><section class="card narrow" aria-labelledby="title">
<h1 id="title">This link no longer works</h1>
<p>Invitation links work once, for ${invitationLifetimeDays} days. Ask an owner of the business for a new one, or <a href="/dashboard/sign-in">sign in</a> if you have an account.</p>
</section></main>`,
    version,
  );
}

/** The business's members; an owner also invites, changes roles and removes. */
export function renderTeam(
  page: {
    member: Member;
    formToken: string;
    team: Pick<Member, 'id' | 'email' | 'role' | 'created_at'>[];
    invitationLink?: string;
    notice?: string;
  },
  version: string,
): string {
  const { member } = page;
  const owner = member.role === 'owner';
  const roleOptions = (selected: MemberRole) =>
    memberRoles
      .map((role) => `<option value="${role}"${role === selected ? ' selected' : ''}>${roleLabels[role]}</option>`)
      .join('');
  const manage = (each: Pick<Member, 'id' | 'email' | 'role'>, index: number) =>
    !owner || each.id === member.id
      ? ''
      : `<div class="actions">
<form method="post" action="/dashboard/team/role">${hidden(page.formToken)}<input type="hidden" name="member" value="${escapeHtml(each.id)}">
<label class="visually-hidden" for="role-${index}">Role of ${escapeHtml(each.email)}</label>
<select id="role-${index}" name="role">${roleOptions(each.role)}</select>
<button class="quiet" type="submit">Change role<span class="visually-hidden"> of ${escapeHtml(each.email)}</span></button></form>
<form method="post" action="/dashboard/team/remove">${hidden(page.formToken)}<input type="hidden" name="member" value="${escapeHtml(each.id)}">
<button class="quiet danger" type="submit">Remove<span class="visually-hidden"> ${escapeHtml(each.email)}</span></button></form>
</div>`;
  const rows = page.team
    .map(
      (each, index) =>
        `<tr><td>${escapeHtml(each.email)}</td><td>${roleLabels[each.role]}</td><td>${each.created_at.toISOString().slice(0, 10)}</td>${owner ? `<td>${manage(each, index)}</td>` : ''}</tr>`,
    )
    .join('\n');
  const invited = page.invitationLink
    ? `<section class="card" aria-labelledby="link" role="status">
<h2 id="link">Invitation ready</h2>
<p>Send this link to them. It works once, for ${invitationLifetimeDays} days, and is not shown again.</p>
<p><code id="invitation-link">${escapeHtml(page.invitationLink)}</code></p>
</section>`
    : '';
  const invite = owner
    ? `<section class="card" aria-labelledby="invite">
<h2 id="invite">Invite someone</h2>
<form method="post" action="/dashboard/team/invitations">${hidden(page.formToken)}
<label for="invite-email">Email</label>
<input id="invite-email" name="email" type="email" required maxlength="254">
<label for="invite-role">Role</label>
<select id="invite-role" name="role">${roleOptions('viewer')}</select>
<button type="submit">Create invitation link</button>
</form>
</section>`
    : '';
  return layout(
    'Team',
    `${bar(member, page.formToken)}
<main>
${page.notice ? `<p class="error" role="alert" id="notice">${escapeHtml(page.notice)}</p>` : ''}
${invited}
<section class="card" aria-labelledby="team">
<h1 id="team">Team</h1>
<div class="table-wrap" role="region" aria-labelledby="team" tabindex="0">
<table>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th>${owner ? '<th scope="col">Change</th>' : ''}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
</section>
${invite}
</main>`,
    version,
  );
}

/** The second step of a sign-in: the code from the member's authenticator app. */
export function renderCodeStep(page: { formToken: string; problem?: string }, version: string): string {
  return layout(
    'Enter your code',
    `<main><section class="card narrow" aria-labelledby="title">
<h1 id="title">Enter your code</h1>
<p>Open your authenticator app and enter the six-digit code it shows for the dashboard.</p>
${problem(page.problem)}
<form method="post" action="/dashboard/two-factor">
${hidden(page.formToken)}
<label for="code">Code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required>
<button type="submit">Sign in</button>
</form>
</section></main>`,
    version,
  );
}

/** Two-factor sign-in: whether the member has it, and, for an owner, whether everyone must. */
export function renderSecurity(page: { member: Member; formToken: string; notice?: string }, version: string): string {
  const { member } = page;
  const own = member.two_factor
    ? '<p id="two-factor-status">Two-factor sign-in is <strong>on</strong>: you sign in with your password and a code from your authenticator app.</p>'
    : `<p id="two-factor-status">Two-factor sign-in is <strong>off</strong>.</p>
<form method="post" action="/dashboard/two-factor/set-up">${hidden(page.formToken)}<button type="submit">Set up an authenticator app</button></form>`;
  const requirement =
    member.role !== 'owner'
      ? ''
      : `<section class="card" aria-labelledby="everyone">
<h2 id="everyone">Everyone in ${escapeHtml(member.business_name)}</h2>
<p>${member.two_factor_required ? 'Every member must sign in with two factors.' : 'Members may sign in with their password alone.'}</p>
${
  member.two_factor
    ? `<form method="post" action="/dashboard/two-factor/requirement">${hidden(page.formToken)}
<input type="hidden" name="required" value="${member.two_factor_required ? 'no' : 'yes'}">
<button class="quiet" type="submit">${member.two_factor_required ? 'Stop requiring two factors' : 'Require two factors of everyone'}</button></form>`
    : '<p class="muted">Set up your own first.</p>'
}
</section>`;
  return layout(
    'Security',
    `${bar(member, page.formToken)}
<main>
${page.notice ? `<p class="error" role="alert" id="notice">${escapeHtml(page.notice)}</p>` : ''}
<section class="card" aria-labelledby="title">
<h1 id="title">Two-factor sign-in</h1>
${own}
</section>
${requirement}
</main>`,
    version,
  );
}

/** The secret to add to an authenticator app, as a QR code and as text, and the code that confirms it. */
export function renderSetUp(
  page: { member: Member; formToken: string; secret: string; qrSvg: string; problem?: string },
  version: string,
): string {
  const grouped = page.secret.replace(/(.{4})/g, '$1 ').trim();
  return layout(
    'Set up two-factor sign-in',
    `${bar(page.member, page.formToken)}
<main><section class="card" aria-labelledby="title">
<h1 id="title">Set up two-factor sign-in</h1>
<p>Scan this code with your authenticator app, or type the key below into it.</p>
<figure class="qr" role="img" aria-label="QR code of the key below">${page.qrSvg}</figure>
<p>Key: <code id="secret">${escapeHtml(grouped)}</code></p>
${problem(page.problem)}
<form method="post" action="/dashboard/two-factor/confirm">
${hidden(page.formToken)}
<label for="code">The six-digit code your app shows</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required>
<button type="submit">Turn on</button>
</form>
</section></main>`,
    version,
  );
}
