import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AcceptsFormPosts, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { DashboardAssets } from './dashboard-assets';
import { DashboardAuth, normalisedEmail, passwordProblem } from './dashboard-auth.service';
import { clearCookie, readCookie, setCookie } from './dashboard-cookies';
import { renderHome, renderLinkUnusable, renderSignIn, renderSignUp } from './dashboard-html';
import { Member, MembersRepository } from './members.repository';
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
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

type Form = Record<string, unknown> | undefined;

const problems = {
  refused: 'That email and password do not match an account.',
  'held-back': 'Too many sign-in attempts. Wait a few minutes, then try again.',
  mismatch: 'The two passwords are not the same.',
  taken: 'This email already has an account. Sign in with it, and ask an owner to invite another email.',
  expired: 'The form expired. Try again.',
} as const;

/**
 * The dashboard's sign-in, sign-up from an invitation, and home. Every change is a form post that
 * carries its CSRF token (derived from the session's cookie, or before sign-in from a form
 * cookie) and comes from this origin.
 */
@ApiExcludeController()
@Controller('dashboard')
@LimitedPerClientAddress()
export class DashboardController {
  constructor(
    private readonly auth: DashboardAuth,
    private readonly members: MembersRepository,
    private readonly sessions: SessionsRepository,
    private readonly assets: DashboardAssets,
  ) {}

  @Get()
  @RawResponse()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    const team = await this.members.team(signedIn.member.business_id);
    await page(
      reply,
      200,
      renderHome({ member: signedIn.member, formToken: formToken(signedIn.token), team }, this.version),
    );
  }

  @Get('sign-in')
  @RawResponse()
  async signInPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.signedIn(request)) return redirect(reply, '/dashboard');
    await page(reply, 200, renderSignIn({ formToken: this.formCookie(request, reply) }, this.version));
  }

  @Post('sign-in')
  @RawResponse()
  @AcceptsFormPosts()
  async signIn(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const email = normalisedEmail(form?.email);
    const again = (status: number, problem: string) =>
      page(reply, status, renderSignIn({ formToken: this.formCookie(request, reply), problem, email }, this.version));
    if (!this.fromThisSite(request) || !formTokenMatches(readCookie(request, 'form'), form?._csrf)) {
      return again(403, problems.expired);
    }
    const result = await this.auth.signIn(email, form?.password, this.caller(request));
    if (!result.signedIn) return again(result.why === 'held-back' ? 429 : 401, problems[result.why]);
    await this.startSession(request, reply, result.sessionToken, result.deviceToken);
    return redirect(reply, '/dashboard');
  }

  @Get('sign-up')
  @RawResponse()
  async signUpPage(
    @Query('invitation') invitation: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const invited = isToken(invitation) ? await this.members.invitation(invitation) : undefined;
    if (!invited?.usable) return page(reply, 404, renderLinkUnusable(this.version));
    await page(
      reply,
      200,
      renderSignUp(
        {
          formToken: this.formCookie(request, reply),
          invitation: invitation as string,
          businessName: invited.business_name,
          email: invited.email,
          role: invited.role,
        },
        this.version,
      ),
    );
  }

  @Post('sign-up')
  @RawResponse()
  @AcceptsFormPosts()
  async signUp(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const invitation = isToken(form?.invitation) ? form.invitation : undefined;
    const invited = invitation ? await this.members.invitation(invitation) : undefined;
    if (!invitation || !invited?.usable) return page(reply, 404, renderLinkUnusable(this.version));
    const again = (status: number, problem: string) =>
      page(
        reply,
        status,
        renderSignUp(
          {
            formToken: this.formCookie(request, reply),
            invitation,
            businessName: invited.business_name,
            email: invited.email,
            role: invited.role,
            problem,
          },
          this.version,
        ),
      );
    if (!this.fromThisSite(request) || !formTokenMatches(readCookie(request, 'form'), form?._csrf)) {
      return again(403, problems.expired);
    }
    const weak = passwordProblem(form?.password);
    if (weak) return again(422, weak);
    const result = await this.auth.signUp(invitation, form?.password, form?.confirmation, this.caller(request));
    if (!result.signedUp) {
      if (result.why === 'used') return page(reply, 404, renderLinkUnusable(this.version));
      return again(422, result.why === 'weak-password' ? (weak ?? problems.expired) : problems[result.why]);
    }
    await this.startSession(request, reply, result.sessionToken, result.deviceToken);
    return redirect(reply, '/dashboard');
  }

  @Post('sign-out')
  @RawResponse()
  @AcceptsFormPosts()
  async signOut(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.signedIn(request);
    if (signedIn && this.changeAllowed(request, signedIn.token, form)) await this.sessions.end(signedIn.token);
    else if (signedIn) return redirect(reply, '/dashboard');
    clearCookie(reply, 'session');
    return redirect(reply, '/dashboard/sign-in');
  }

  @Post('sign-out-everywhere')
  @RawResponse()
  @AcceptsFormPosts()
  async signOutEverywhere(
    @Req() request: FastifyRequest,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (!this.changeAllowed(request, signedIn.token, form)) return redirect(reply, '/dashboard');
    await this.auth.signOutEverywhere(signedIn.member, this.caller(request));
    clearCookie(reply, 'session');
    return redirect(reply, '/dashboard/sign-in');
  }

  @Get('assets/dashboard.css')
  @RawResponse()
  async stylesheet(@Query('v') version: unknown, @Res() reply: FastifyReply): Promise<void> {
    const caching = version === this.version ? 'public, max-age=31536000, immutable' : 'no-cache';
    await reply
      .headers({
        'content-type': 'text/css; charset=utf-8',
        'cache-control': caching,
        'x-content-type-options': 'nosniff',
      })
      .send(this.assets.stylesheet);
  }

  private get version(): string {
    return this.assets.version;
  }

  private async signedIn(request: FastifyRequest): Promise<{ token: string; member: Member } | undefined> {
    const token = readCookie(request, 'session');
    const member = token ? await this.sessions.member(token) : undefined;
    return token && member ? { token, member } : undefined;
  }

  /** A change by a signed-in member: posted from this site, with the session's form token. */
  private changeAllowed(request: FastifyRequest, sessionToken: string, form: Form): boolean {
    return this.fromThisSite(request) && formTokenMatches(sessionToken, form?._csrf);
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

  /** The form cookie's token (set now when the browser has none): what a pre-sign-in form's CSRF token derives from. */
  private formCookie(request: FastifyRequest, reply: FastifyReply): string {
    let token = readCookie(request, 'form');
    if (!token) {
      token = newToken();
      setCookie(reply, 'form', token);
    }
    return formToken(token);
  }

  /** A new session in place of any the browser had: one browser, one session. */
  private async startSession(
    request: FastifyRequest,
    reply: FastifyReply,
    sessionToken: string,
    deviceToken: string | undefined,
  ): Promise<void> {
    const previous = readCookie(request, 'session');
    if (previous) await this.sessions.end(previous);
    setCookie(reply, 'session', sessionToken);
    if (deviceToken) setCookie(reply, 'device', deviceToken);
  }

  private caller(request: FastifyRequest) {
    return { address: request.ip, deviceToken: readCookie(request, 'device') };
  }
}

function isToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

async function page(reply: FastifyReply, status: number, html: string): Promise<void> {
  await reply.status(status).headers(pageHeaders).send(html);
}

async function redirect(reply: FastifyReply, location: string): Promise<void> {
  await reply.status(303).headers({ location, 'cache-control': 'no-store' }).send();
}
