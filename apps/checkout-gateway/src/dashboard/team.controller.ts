import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { AcceptsFormPosts, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Env } from '../config/env';
import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { normalisedEmail } from './dashboard-auth.service';
import { renderTeam } from './dashboard-html';
import { dashboardSignUpLink } from './dashboard-links';
import { DashboardRequests, Form, page, redirect, shownTo, SignedIn } from './dashboard-requests';
import { MembersRepository } from './members.repository';
import { MemberRole, memberRoles } from './roles';
import { Team, TeamChange } from './team';

const refusals: Record<Exclude<TeamChange, 'done'>, { status: number; notice: string }> = {
  'last-owner': { status: 409, notice: 'The business needs an owner: make someone else an owner first.' },
  'not-found': { status: 404, notice: 'That member is not in your team.' },
  'not-owner': { status: 403, notice: 'Only owners can change the team.' },
};

/** The team: every member sees it; owners invite, change roles and remove. */
@ApiExcludeController()
@Controller('dashboard/team')
@LimitedPerClientAddress()
export class TeamController {
  constructor(
    private readonly team: Team,
    private readonly members: MembersRepository,
    private readonly requests: DashboardRequests,
    private readonly env: Env,
  ) {}

  @Get()
  @RawResponse()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.pageMember(request);
    if ('sendTo' in signedIn) return redirect(reply, signedIn.sendTo);
    await this.teamPage(reply, signedIn, 200);
  }

  @Post('invitations')
  @RawResponse()
  @AcceptsFormPosts()
  async invite(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.changer(request, form);
    if (!signedIn) return redirect(reply, '/dashboard/team');
    const email = normalisedEmail(form?.email);
    const role = roleOf(form?.role);
    if (!email || !role) return this.teamPage(reply, signedIn, 422, 'Give an email address and a role.');
    const token = await this.team.invite(signedIn.member, email, role, clientAddressKey(request.ip));
    if (token === 'not-owner') return this.teamPage(reply, signedIn, 403, refusals['not-owner'].notice);
    // The same answer whether or not the email has an account anywhere: nothing to enumerate.
    await this.teamPage(reply, signedIn, 200, undefined, dashboardSignUpLink(this.env.CHECKOUT_URL, token));
  }

  @Post('role')
  @RawResponse()
  @AcceptsFormPosts()
  async changeRole(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.changer(request, form);
    if (!signedIn) return redirect(reply, '/dashboard/team');
    const role = roleOf(form?.role);
    const memberId = typeof form?.member === 'string' ? form.member : '';
    if (!role) return this.teamPage(reply, signedIn, 422, 'Choose a role.');
    await this.answer(
      reply,
      signedIn,
      await this.team.changeRole(signedIn.member, memberId, role, clientAddressKey(request.ip)),
    );
  }

  @Post('remove')
  @RawResponse()
  @AcceptsFormPosts()
  async remove(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.changer(request, form);
    if (!signedIn) return redirect(reply, '/dashboard/team');
    const memberId = typeof form?.member === 'string' ? form.member : '';
    await this.answer(reply, signedIn, await this.team.remove(signedIn.member, memberId, clientAddressKey(request.ip)));
  }

  /** The signed-in member posting a change, with its form token; undefined for anything else. */
  private async answer(reply: FastifyReply, signedIn: SignedIn, change: TeamChange): Promise<void> {
    if (change === 'done') return redirect(reply, '/dashboard/team');
    await this.teamPage(reply, signedIn, refusals[change].status, refusals[change].notice);
  }

  private async teamPage(
    reply: FastifyReply,
    signedIn: SignedIn,
    status: number,
    notice?: string,
    invitationLink?: string,
  ): Promise<void> {
    const team = await this.members.team(signedIn.member.business_id);
    await page(
      reply,
      status,
      renderTeam({ ...shownTo(signedIn), team, notice, invitationLink }, this.requests.version),
    );
  }
}

function roleOf(value: unknown): MemberRole | undefined {
  return memberRoles.find((role) => role === value);
}
