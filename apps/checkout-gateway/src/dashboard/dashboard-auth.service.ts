import { Injectable } from '@nestjs/common';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { DataSource } from 'typeorm';

import { Member, MembersRepository } from './members.repository';
import { hashPassword, nobodysHash, passwordLength, passwordMatches } from './passwords';
import { SessionsRepository } from './sessions.repository';
import { attemptKeys, codeKeys, SignInAttempts } from './sign-in-attempts';
import { TwoFactor } from './two-factor';

/** Where a request came from, as the audit trail and the sign-in limits count it. */
export interface Caller {
  address: string | undefined;
  /** The device cookie's token, if the browser has one. */
  deviceToken?: string;
}

/** Signed in, or, for a member with a second factor, waiting for their code. */
export type SignInResult =
  | { signedIn: true; member: Member; sessionToken: string; deviceToken?: string; awaitingCode: boolean }
  | { signedIn: false; why: 'refused' | 'held-back' };

export type CodeResult =
  { accepted: true; sessionToken: string; deviceToken?: string } | { accepted: false; why: 'wrong' | 'held-back' };

export type SignUpResult =
  | { signedUp: true; member: Member; sessionToken: string; deviceToken: string }
  | { signedUp: false; why: 'used' | 'taken' | 'weak-password' | 'mismatch' };

/** Emails as one person's sign-in: trimmed and lower-cased, at most RFC 5321's 254 characters. */
export function normalisedEmail(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const email = value.trim().toLowerCase();
  // ASCII only: JavaScript and PostgreSQL lower-case it alike.
  return email.length <= 254 && /^[\x21-\x3f\x41-\x7e]+@[\x21-\x3f\x41-\x7e]+\.[\x21-\x3f\x41-\x7e]+$/.test(email)
    ? email
    : undefined;
}

export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string' || password.length < passwordLength.min) {
    return `Choose a password of at least ${passwordLength.min} characters`;
  }
  if (password.length > passwordLength.max) return `A password can have at most ${passwordLength.max} characters`;
  return undefined;
}

/**
 * Signing people in and up. A sign-in answers the same for an unknown email as for a wrong
 * password, and checks a password hash either way, so neither its answer nor its time tells
 * whether an email has an account.
 */
@Injectable()
export class DashboardAuth {
  constructor(
    private readonly dataSource: DataSource,
    private readonly members: MembersRepository,
    private readonly sessions: SessionsRepository,
    private readonly attempts: SignInAttempts,
    private readonly twoFactor: TwoFactor,
  ) {}

  async signIn(email: string | undefined, password: unknown, caller: Caller): Promise<SignInResult> {
    const typed = typeof password === 'string' && password.length <= passwordLength.max ? password : '';
    // An unreadable email is still counted, under its address, so it cannot be used to probe for free.
    const member = email ? await this.members.byEmail(email) : undefined;
    // Looked up whether or not the email has an account, so that the time taken tells nothing.
    const knownDevice = await this.members.isDeviceOf(caller.deviceToken, member?.id ?? '');
    const keys = attemptKeys(email ?? '', caller.address, knownDevice ? caller.deviceToken : undefined);
    if (!(await this.attempts.admit(keys))) return { signedIn: false, why: 'held-back' };
    const matches = await passwordMatches(typed, member?.password_hash ?? nobodysHash);
    if (!member || !matches) return { signedIn: false, why: 'refused' };
    await this.attempts.succeeded(keys);
    const { password_hash: _hash, ...signedIn } = member;
    const awaitingCode = member.two_factor;
    const sessionToken = await this.sessions.start(member.id, clientAddressKey(caller.address), awaitingCode);
    if (!awaitingCode) await this.recordSignIn(signedIn, caller);
    // A browser is remembered once signed in with every factor: the password alone earns nothing.
    const remember = !knownDevice && !awaitingCode;
    return {
      signedIn: true,
      member: signedIn,
      sessionToken,
      awaitingCode,
      deviceToken: remember ? await this.members.rememberDevice(member.id) : undefined,
    };
  }

  /**
   * The code that completes a sign-in begun with the password: a new session in place of the
   * waiting one. Five wrong codes end the waiting session (the password is asked again), and a
   * hundred in a day, over any number of sign-ins, hold the member's codes back until that
   * day's window ends.
   */
  async completeWithCode(waitingToken: string, member: Member, code: unknown, caller: Caller): Promise<CodeResult> {
    const keys = codeKeys(waitingToken, member.id);
    if (!(await this.attempts.admit(keys))) {
      await this.sessions.end(waitingToken);
      await this.members.record(this.dataSource.manager, {
        businessId: member.business_id,
        actorKind: 'member',
        actor: member.email,
        action: 'member.codes-held-back',
        clientAddress: clientAddressKey(caller.address),
      });
      return { accepted: false, why: 'held-back' };
    }
    if (!(await this.twoFactor.codeMatches(member.id, code))) return { accepted: false, why: 'wrong' };
    await this.attempts.succeeded(keys);
    await this.sessions.end(waitingToken);
    const sessionToken = await this.sessions.start(member.id, clientAddressKey(caller.address));
    await this.recordSignIn(member, caller);
    const knownDevice = await this.members.isDeviceOf(caller.deviceToken, member.id);
    return {
      accepted: true,
      sessionToken,
      deviceToken: knownDevice ? undefined : await this.members.rememberDevice(member.id),
    };
  }

  private async recordSignIn(member: Member, caller: Caller): Promise<void> {
    await this.members.record(this.dataSource.manager, {
      businessId: member.business_id,
      actorKind: 'member',
      actor: member.email,
      action: member.two_factor ? 'member.signed-in-with-two-factors' : 'member.signed-in',
      clientAddress: clientAddressKey(caller.address),
    });
  }

  async signUp(
    invitationToken: string,
    password: unknown,
    confirmation: unknown,
    caller: Caller,
  ): Promise<SignUpResult> {
    if (passwordProblem(password)) return { signedUp: false, why: 'weak-password' };
    if (password !== confirmation) return { signedUp: false, why: 'mismatch' };
    const accepted = await this.members.accept(
      invitationToken,
      await hashPassword(password as string),
      clientAddressKey(caller.address),
    );
    if (accepted === 'used' || accepted === 'taken') return { signedUp: false, why: accepted };
    return {
      signedUp: true,
      member: accepted,
      sessionToken: await this.sessions.start(accepted.id, clientAddressKey(caller.address)),
      deviceToken: await this.members.rememberDevice(accepted.id),
    };
  }

  /** Ends every session of the member, this one included. */
  async signOutEverywhere(member: Member, caller: Caller): Promise<void> {
    await this.sessions.endAll(member.id);
    await this.members.record(this.dataSource.manager, {
      businessId: member.business_id,
      actorKind: 'member',
      actor: member.email,
      action: 'member.signed-out-everywhere',
      clientAddress: clientAddressKey(caller.address),
    });
  }
}
