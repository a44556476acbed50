import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AcceptsFormPosts, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { DashboardAuth, normalisedEmail, passwordProblem } from './dashboard-auth.service';
import { clearCookie, readCookie, setCookie } from './dashboard-cookies';
import { renderCodeStep, renderLinkUnusable, renderSignIn, renderSignUp } from './dashboard-html';
import { DashboardRequests, Form, page, problems, redirect } from './dashboard-requests';
import { MembersRepository } from './members.repository';
import { SessionsRepository } from './sessions.repository';
import { formToken } from './tokens';

/**
 * Signing up from an invitation, signing in (the password, then a code for a member with a
 * second factor) and out. Every post carries its CSRF token (derived from the session's cookie,
 * or before sign-in from a form cookie) and comes from this origin.
 */
@ApiExcludeController()
@Controller('dashboard')
@LimitedPerClientAddress()
export class SignInController {
  constructor(
    private readonly auth: DashboardAuth,
    private readonly members: MembersRepository,
    private readonly sessions: SessionsRepository,
    private readonly requests: DashboardRequests,
  ) {}

  @Get('sign-in')
  @RawResponse()
  async signInPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.requests.signedIn(request)) return redirect(reply, '/dashboard');
    await page(
      reply,
      200,
      renderSignIn({ formToken: this.requests.formCookie(request, reply) }, this.requests.version),
    );
  }

  @Post('sign-in')
  @RawResponse()
  @AcceptsFormPosts()
  async signIn(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const email = normalisedEmail(form?.email);
    const again = (status: number, problem: string) =>
      page(
        reply,
        status,
        renderSignIn({ formToken: this.requests.formCookie(request, reply), problem, email }, this.requests.version),
      );
    if (!this.requests.formAllowed(request, form)) {
      return again(403, problems.expired);
    }
    const result = await this.auth.signIn(email, form?.password, this.requests.caller(request));
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
    if (!invited?.usable) return page(reply, 404, renderLinkUnusable(this.requests.version));
    await page(
      reply,
      200,
      renderSignUp(
        {
          formToken: this.requests.formCookie(request, reply),
          invitation: invitation as string,
          businessName: invited.business_name,
          email: invited.email,
          role: invited.role,
        },
        this.requests.version,
      ),
    );
  }

  @Post('sign-up')
  @RawResponse()
  @AcceptsFormPosts()
  async signUp(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const invitation = isToken(form?.invitation) ? form.invitation : undefined;
    const invited = invitation ? await this.members.invitation(invitation) : undefined;
    if (!invitation || !invited?.usable) return page(reply, 404, renderLinkUnusable(this.requests.version));
    const again = (status: number, problem: string) =>
      page(
        reply,
        status,
        renderSignUp(
          {
            formToken: this.requests.formCookie(request, reply),
            invitation,
            businessName: invited.business_name,
            email: invited.email,
            role: invited.role,
            problem,
          },
          this.requests.version,
        ),
      );
    if (!this.requests.formAllowed(request, form)) {
      return again(403, problems.expired);
    }
    const weak = passwordProblem(form?.password);
    if (weak) return again(422, weak);
    const result = await this.auth.signUp(
      invitation,
      form?.password,
      form?.confirmation,
      this.requests.caller(request),
    );
    if (!result.signedUp) {
      if (result.why === 'used') return page(reply, 404, renderLinkUnusable(this.requests.version));
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
    const signedIn = await this.requests.session(request);
    if (signedIn && this.requests.changeAllowed(request, signedIn.token, form)) await this.sessions.end(signedIn.token);
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
    const signedIn = await this.requests.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (!this.requests.changeAllowed(request, signedIn.token, form)) return redirect(reply, '/dashboard');
    await this.auth.signOutEverywhere(signedIn.member, this.requests.caller(request));
    clearCookie(reply, 'session');
    return redirect(reply, '/dashboard/sign-in');
  }

  @Get('two-factor')
  @RawResponse()
  async codePage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.requests.session(request);
    if (!session?.awaitingCode) return redirect(reply, session ? '/dashboard' : '/dashboard/sign-in');
    await page(reply, 200, renderCodeStep({ formToken: formToken(session.token) }, this.requests.version));
  }

  @Post('two-factor')
  @RawResponse()
  @AcceptsFormPosts()
  async code(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.requests.session(request);
    if (!session?.awaitingCode) return redirect(reply, session ? '/dashboard' : '/dashboard/sign-in');
    const again = (status: number, problem: string) =>
      page(reply, status, renderCodeStep({ formToken: formToken(session.token), problem }, this.requests.version));
    if (!this.requests.changeAllowed(request, session.token, form)) return again(403, problems.expired);
    const result = await this.auth.completeWithCode(
      session.token,
      session.member,
      form?.code,
      this.requests.caller(request),
    );
    if (!result.accepted && result.why === 'held-back') {
      clearCookie(reply, 'session');
      return page(
        reply,
        429,
        renderSignIn(
          { formToken: this.requests.formCookie(request, reply), problem: problems['held-back'] },
          this.requests.version,
        ),
      );
    }
    if (!result.accepted) return again(401, problems.wrongCode);
    setCookie(reply, 'session', result.sessionToken);
    if (result.deviceToken) setCookie(reply, 'device', result.deviceToken);
    return redirect(reply, '/dashboard');
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
}

function isToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}
