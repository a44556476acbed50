import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { DashboardAssets } from './dashboard-assets';
import { Caller } from './dashboard-auth.service';
import { readCookie, setCookie } from './dashboard-cookies';
import { Member } from './members.repository';
import { SessionsRepository } from './sessions.repository';
import { formToken, formTokenMatches, newToken } from './tokens';

/** No framing (clickjacking), no script at all, forms posted to this origin only. */
export const dashboardContentSecurityPolicy = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': dashboardContentSecurityPolicy,
  'cache-control': 'no-store',
  // Not no-referrer: under it a browser posts forms with `Origin: null`, which fromThisSite refuses.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** A posted form's fields, as the form parser left them: anything may be missing or odd. */
export type Form = Record<string, unknown> | undefined;

/** A browser's session and its member. */
export interface SignedIn {
  token: string;
  member: Member;
}

export const problems = {
  refused: 'That email and password do not match an account.',
  'held-back': 'Too many sign-in attempts. Wait a few minutes, then try again.',
  mismatch: 'The two passwords are not the same.',
  taken: 'This email already has an account. Sign in with it, and ask an owner to invite another email.',
  expired: 'The form expired. Try again.',
  wrongCode: 'That code is not the one your app shows now. Try the next one.',
  mustSetUp: 'Your business requires two-factor sign-in: set up an authenticator app to go on.',
  ownersOnly: 'Only an owner with two-factor sign-in of their own can change this.',
} as const;

/**
 * What every dashboard route asks of its request: whose session it carries, whether a change
 * it posts is the member's own (CSRF), and where it comes from.
 */
@Injectable()
export class DashboardRequests {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly assets: DashboardAssets,
  ) {}

  /** The stylesheet's version, for the pages' versioned link to it. */
  get version(): string {
    return this.assets.version;
  }

  /** The member of the browser's session, once signed in with every factor they have. */
  async signedIn(request: FastifyRequest): Promise<SignedIn | undefined> {
    const session = await this.session(request);
    return session && !session.awaitingCode ? session : undefined;
  }

  /**
   * The member a page (other than sign-in's and Security) is shown to, or where to send the
   * browser instead: to sign in, to enter its code, or to set up the second factor the business
   * requires. Every such page asks this, so that none forgets a step.
   */
  async pageMember(request: FastifyRequest): Promise<SignedIn | { sendTo: string }> {
    const session = await this.session(request);
    if (!session) return { sendTo: '/dashboard/sign-in' };
    if (session.awaitingCode) return { sendTo: '/dashboard/two-factor' };
    if (mustSetUpTwoFactor(session.member)) return { sendTo: '/dashboard/security' };
    return { token: session.token, member: session.member };
  }

  /** The browser's session, signed in or still waiting for its code. */
  async session(request: FastifyRequest): Promise<(SignedIn & { awaitingCode: boolean }) | undefined> {
    const token = readCookie(request, 'session');
    const found = token ? await this.sessions.find(token) : undefined;
    return token && found ? { token, ...found } : undefined;
  }

  /** A change by a signed-in member: posted from this site, with the session's form token. */
  changeAllowed(request: FastifyRequest, sessionToken: string, form: Form): boolean {
    return this.fromThisSite(request) && formTokenMatches(sessionToken, form?._csrf);
  }

  /**
   * The member a change is made by, as pages are shown (every factor, the second one set up
   * where required), posted from this site with the session's form token; undefined otherwise.
   */
  async changer(request: FastifyRequest, form: Form): Promise<SignedIn | undefined> {
    const signedIn = await this.pageMember(request);
    if ('sendTo' in signedIn) return undefined;
    return this.changeAllowed(request, signedIn.token, form) ? signedIn : undefined;
  }

  /** A form posted before sign-in (sign-in, sign-up): from this site, with the form cookie's token. */
  formAllowed(request: FastifyRequest, form: Form): boolean {
    return this.fromThisSite(request) && formTokenMatches(readCookie(request, 'form'), form?._csrf);
  }

  /** The form cookie's token (set now when the browser has none): what a pre-sign-in form's CSRF token derives from. */
  formCookie(request: FastifyRequest, reply: FastifyReply): string {
    let token = readCookie(request, 'form');
    if (!token) {
      token = newToken();
      setCookie(reply, 'form', token);
    }
    return formToken(token);
  }

  caller(request: FastifyRequest): Caller {
    return { address: request.ip, deviceToken: readCookie(request, 'device') };
  }

  /**
   * The browser says the post came from a page of this site. Browsers send Origin with every
   * form post and Sec-Fetch-Site with most; a request with neither is not a browser's, and a
   * CSRF attack needs a browser.
   */
  private fromThisSite(request: FastifyRequest): boolean {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return false;
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    try {
      // By host name: a proxy in front may name the port differently, and cookies ignore ports.
      return new URL(origin).hostname === new URL(`http://${request.headers.host}`).hostname;
    } catch {
      return false;
    }
  }
}

/** What every signed-in page is rendered with: the member, and the form token of their session. */
export function shownTo(signedIn: SignedIn): { member: Member; formToken: string } {
  return { member: signedIn.member, formToken: formToken(signedIn.token) };
}

/** The business requires a second factor the member has not set up: they may see the security page only. */
export function mustSetUpTwoFactor(member: Member): boolean {
  return member.two_factor_required && !member.two_factor;
}

export async function page(reply: FastifyReply, status: number, html: string): Promise<void> {
  await reply.status(status).headers(pageHeaders).send(html);
}

export async function redirect(reply: FastifyReply, location: string): Promise<void> {
  await reply.status(303).headers({ location, 'cache-control': 'no-store' }).send();
}
