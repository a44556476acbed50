import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { AcceptsFormPosts, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toString as qrCode } from 'qrcode';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { DashboardAssets } from './dashboard-assets';
import { DashboardAuth, normalisedEmail, passwordProblem } from './dashboard-auth.service';
import { clearCookie, readCookie, setCookie } from './dashboard-cookies';
import {
  renderCodeStep,
  renderHome,
  renderLinkUnusable,
  renderSecurity,
  renderSetUp,
  renderSignIn,
  renderSignUp,
} from './dashboard-html';
import { Member, MembersRepository } from './members.repository';
import { SessionsRepository } from './sessions.repository';
import { formToken, formTokenMatches, newToken } from './tokens';
import { TwoFactor, TwoFactorSetUp } from './two-factor';

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

type Form = Record<string, unknown> | undefined;

const problems = {
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
    private readonly twoFactor: TwoFactor,
  ) {}

  @Get()
  @RawResponse()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (mustSetUpTwoFactor(signedIn.member)) return redirect(reply, '/dashboard/security');
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
    return redirect(reply, result.awaitingCode ? '/dashboard/two-factor' : '/dashboard');
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
    // A session waiting for its code may be given up too.
    const signedIn = await this.session(request);
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

  @Get('two-factor')
  @RawResponse()
  async codePage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.session(request);
    if (!session?.awaitingCode) return redirect(reply, session ? '/dashboard' : '/dashboard/sign-in');
    await page(reply, 200, renderCodeStep({ formToken: formToken(session.token) }, this.version));
  }

  @Post('two-factor')
  @RawResponse()
  @AcceptsFormPosts()
  async code(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.session(request);
    if (!session?.awaitingCode) return redirect(reply, session ? '/dashboard' : '/dashboard/sign-in');
    const again = (status: number, problem: string) =>
      page(reply, status, renderCodeStep({ formToken: formToken(session.token), problem }, this.version));
    if (!this.changeAllowed(request, session.token, form)) return again(403, problems.expired);
    const result = await this.auth.completeWithCode(session.token, session.member, form?.code, this.caller(request));
    if (!result.accepted && result.why === 'held-back') {
      clearCookie(reply, 'session');
      return page(
        reply,
        429,
        renderSignIn({ formToken: this.formCookie(request, reply), problem: problems['held-back'] }, this.version),
      );
    }
    if (!result.accepted) return again(401, problems.wrongCode);
    setCookie(reply, 'session', result.sessionToken);
    return redirect(reply, '/dashboard');
  }

  @Get('security')
  @RawResponse()
  async security(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    const notice = mustSetUpTwoFactor(signedIn.member) ? problems.mustSetUp : undefined;
    await page(
      reply,
      200,
      renderSecurity({ member: signedIn.member, formToken: formToken(signedIn.token), notice }, this.version),
    );
  }

  @Post('two-factor/set-up')
  @RawResponse()
  @AcceptsFormPosts()
  async setUpTwoFactor(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (!this.changeAllowed(request, signedIn.token, form)) return redirect(reply, '/dashboard/security');
    const setUp = await this.twoFactor.setUp(signedIn.member);
    if (!setUp) return redirect(reply, '/dashboard/security');
    await this.setUpPage(reply, signedIn, setUp, 200);
  }

  @Post('two-factor/confirm')
  @RawResponse()
  @AcceptsFormPosts()
  async confirmTwoFactor(
    @Req() request: FastifyRequest,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (!this.changeAllowed(request, signedIn.token, form)) return redirect(reply, '/dashboard/security');
    const address = clientAddressKey(request.ip);
    if (await this.twoFactor.confirm(signedIn.member, form?.code, address)) {
      return redirect(reply, '/dashboard/security');
    }
    const pending = await this.twoFactor.pendingSetUp(signedIn.member);
    if (!pending) return redirect(reply, '/dashboard/security');
    await this.setUpPage(reply, signedIn, pending, 422, problems.wrongCode);
  }

  @Post('two-factor/requirement')
  @RawResponse()
  @AcceptsFormPosts()
  async requireTwoFactor(
    @Req() request: FastifyRequest,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (!this.changeAllowed(request, signedIn.token, form)) return redirect(reply, '/dashboard/security');
    // Owners only, and only with a second factor of their own: nobody is required what they lack.
    if (signedIn.member.role !== 'owner' || !signedIn.member.two_factor) {
      return page(
        reply,
        403,
        renderSecurity(
          { member: signedIn.member, formToken: formToken(signedIn.token), notice: problems.ownersOnly },
          this.version,
        ),
      );
    }
    await this.twoFactor.require(signedIn.member, form?.required === 'yes', clientAddressKey(request.ip));
    return redirect(reply, '/dashboard/security');
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

  /** The member of the browser's session, once signed in with every factor they have. */
  private async signedIn(request: FastifyRequest): Promise<{ token: string; member: Member } | undefined> {
    const session = await this.session(request);
    return session && !session.awaitingCode ? session : undefined;
  }

  private async session(
    request: FastifyRequest,
  ): Promise<{ token: string; member: Member; awaitingCode: boolean } | undefined> {
    const token = readCookie(request, 'session');
    const found = token ? await this.sessions.find(token) : undefined;
    return token && found ? { token, ...found } : undefined;
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

  private async setUpPage(
    reply: FastifyReply,
    signedIn: { token: string; member: Member },
    setUp: TwoFactorSetUp,
    status: number,
    problem?: string,
  ): Promise<void> {
    const qrSvg = await qrCode(setUp.uri, { type: 'svg', margin: 1 });
    await page(
      reply,
      status,
      renderSetUp(
        { member: signedIn.member, formToken: formToken(signedIn.token), secret: setUp.secret, qrSvg, problem },
        this.version,
      ),
    );
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

/** The business requires a second factor the member has not set up: they may see the security page only. */
function mustSetUpTwoFactor(member: Member): boolean {
  return member.two_factor_required && !member.two_factor;
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
