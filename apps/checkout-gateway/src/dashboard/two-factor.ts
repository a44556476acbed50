import { Inject, Injectable } from '@nestjs/common';
import { MemberSecretSealer } from '@payments/platform-crypto';
import { firstRow } from '@payments/platform-database';
import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';

import { Member, MembersRepository } from './members.repository';
import { tokenHash } from './tokens';

/** A code from the step before or after the current one is accepted too: phones' clocks drift. */
const toleranceSteps = 1;
const issuer = 'Payments dashboard';

/** RFC 6238 as authenticator apps take it by default: SHA-1, six digits, every 30 s. */
function totpOf(secret: string, label = ''): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

export const MEMBER_SECRET_SEALER = Symbol('MEMBER_SECRET_SEALER');

/** What an authenticator app needs to be set up: the secret, also as an otpauth:// URI for a QR code. */
export interface TwoFactorSetUp {
  secret: string;
  uri: string;
}

/**
 * Members' second factor: a TOTP secret (RFC 6238, six digits every 30 s) in an authenticator
 * app. The secret is sealed to its member and works once a code from it is confirmed; each code
 * signs in once, however many requests carry it at the same moment.
 */
@Injectable()
export class TwoFactor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly members: MembersRepository,
    @Inject(MEMBER_SECRET_SEALER) private readonly sealer: MemberSecretSealer,
  ) {}

  /** A new secret for a member who has no second factor yet (any earlier unconfirmed one is replaced). */
  async setUp(member: Member): Promise<TwoFactorSetUp | undefined> {
    const secret = new Secret({ size: 20 }).base32;
    const [, updated] = (await this.dataSource.query(
      `UPDATE gateway.members SET totp_secret_sealed = $2 WHERE id = $1 AND totp_enabled_at IS NULL`,
      [member.id, this.sealer.seal(secret, member.id)],
    )) as [unknown, number];
    if (updated === 0) return undefined;
    return { secret, uri: totpOf(secret, member.email).toString() };
  }

  /** The secret set up last and not yet confirmed, to show again after a wrong code. */
  async pendingSetUp(member: Member): Promise<TwoFactorSetUp | undefined> {
    const pending = await this.secretOf(member.id, false);
    return pending && { secret: pending.secret, uri: totpOf(pending.secret, member.email).toString() };
  }

  /**
   * Turns the second factor on with a code from the secret set up last, ends the member's other
   * sessions and forgets their browsers, all begun with the password alone. False when the code
   * is not its.
   */
  async confirm(member: Member, sessionToken: string, code: unknown, clientAddress: string): Promise<boolean> {
    const pending = await this.secretOf(member.id, false);
    const step = pending && this.stepOf(pending.secret, code);
    if (!pending || step === undefined) return false;
    return this.dataSource.transaction(async (em) => {
      const [, enabled] = (await em.query(
        `UPDATE gateway.members SET totp_enabled_at = now(), totp_last_step = $3
         WHERE id = $1 AND totp_enabled_at IS NULL AND totp_secret_sealed = $2`,
        [member.id, pending.sealed, step],
      )) as [unknown, number];
      if (enabled === 0) return false;
      await em.query(`DELETE FROM gateway.member_sessions WHERE member_id = $1 AND token_hash <> $2`, [
        member.id,
        tokenHash(sessionToken),
      ]);
      // Browsers remembered after the password alone are remembered no longer.
      await em.query(`DELETE FROM gateway.member_devices WHERE member_id = $1`, [member.id]);
      await this.members.record(em, {
        businessId: member.business_id,
        actorKind: 'member',
        actor: member.email,
        action: 'member.two-factor-enabled',
        clientAddress,
      });
      return true;
    });
  }

  /**
   * A sign-in's code: true when it is the member's and no code of its time step or a later one
   * was used before. The guarded update is what lets one request use it.
   */
  async codeMatches(memberId: string, code: unknown): Promise<boolean> {
    const enabled = await this.secretOf(memberId, true);
    const step = enabled && this.stepOf(enabled.secret, code);
    if (step === undefined) return false;
    const [, used] = (await this.dataSource.query(
      `UPDATE gateway.members SET totp_last_step = $2
       WHERE id = $1 AND totp_enabled_at IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2)`,
      [memberId, step],
    )) as [unknown, number];
    return used === 1;
  }

  /**
   * An owner requires (or stops requiring) every member of the business to sign in with two
   * factors: only while they are an owner with a second factor of their own, checked in the
   * statement. False when they are not.
   */
  async require(owner: Member, required: boolean, clientAddress: string): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      // Locked first, as team changes lock it: the check below then reads any demotion committed before.
      await em.query(`SELECT 1 FROM gateway.businesses WHERE id = $1 FOR NO KEY UPDATE`, [owner.business_id]);
      const [, changed] = (await em.query(
        `UPDATE gateway.businesses SET members_need_two_factor = $2
         WHERE id = $1 AND EXISTS (SELECT 1 FROM gateway.members WHERE id = $3 AND business_id = $1
                                   AND role = 'owner' AND totp_enabled_at IS NOT NULL)`,
        [owner.business_id, required, owner.id],
      )) as [unknown, number];
      if (changed === 0) return false;
      await this.members.record(em, {
        businessId: owner.business_id,
        actorKind: 'member',
        actor: owner.email,
        action: required ? 'business.two-factor-required' : 'business.two-factor-not-required',
        clientAddress,
      });
      return true;
    });
  }

  private async secretOf(memberId: string, enabled: boolean): Promise<{ secret: string; sealed: string } | undefined> {
    const row = await firstRow<{ sealed: string | null }>(
      this.dataSource,
      `SELECT totp_secret_sealed AS sealed FROM gateway.members
       WHERE id = $1 AND (totp_enabled_at IS NOT NULL) = $2`,
      [memberId, enabled],
    );
    return row?.sealed ? { secret: this.sealer.open(row.sealed, memberId), sealed: row.sealed } : undefined;
  }

  /** The time step a six-digit code belongs to, if it is the secret's now (within the tolerance). */
  private stepOf(secret: string, code: unknown): number | undefined {
    if (typeof code !== 'string') return undefined;
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) return undefined;
    const totp = totpOf(secret);
    const timestamp = Date.now();
    const delta = totp.validate({ token: digits, timestamp, window: toleranceSteps });
    return delta === null ? undefined : totp.counter({ timestamp }) + delta;
  }
}
