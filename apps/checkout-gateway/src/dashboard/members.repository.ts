import { Injectable } from '@nestjs/common';
import { BusinessMode } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { firstRow } from '@payments/platform-database';
import { DataSource, EntityManager } from 'typeorm';

import { MemberRole } from './roles';
import { newToken, tokenHash } from './tokens';

export interface Member {
  id: string;
  business_id: string;
  business_name: string;
  /** The business's mode: a live business's money moves on real rails. */
  business_mode: BusinessMode;
  email: string;
  role: MemberRole;
  /** Signs in with a code from an authenticator app as well as the password. */
  two_factor: boolean;
  /** The business's owners require every member to sign in with two factors. */
  two_factor_required: boolean;
  created_at: Date;
}

/** A member as a sign-in checks them: with the password's hash, which nothing else reads. */
export type MemberWithPassword = Member & { password_hash: string };

/** An invitation as its link shows it: to whom, for which business, and whether it still works. */
export interface Invitation {
  business_id: string;
  business_name: string;
  email: string;
  role: MemberRole;
  usable: boolean;
}

/** A change the audit trail keeps: who (a member, a key, an operator), what, to what, from where. */
export interface AuditEvent {
  businessId: string;
  actorKind: 'member' | 'key' | 'operator';
  actor: string;
  action: string;
  subject?: string;
  clientAddress?: string;
}

/** A remembered browser's cookie lives this long (Chromium's longest), and its row no longer. */
export const deviceLifetimeDays = 400;

/** How long an invitation's link works. */
export const invitationLifetimeDays = 7;

/** A member's columns, `m` joined with its business `b`. */
export const memberColumns = `m.id, m.business_id, b.name AS business_name, b.mode AS business_mode, m.email, m.role,
  m.totp_enabled_at IS NOT NULL AS two_factor, b.members_need_two_factor AS two_factor_required, m.created_at`;

/** gateway.members and their invitations, devices and audit trail. */
@Injectable()
export class MembersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A one-time link's token for `email` to join the business as `role`, and its audit entry.
   * `invitedBy`: the inviting member's email, or null for an operator's command.
   */
  async invite(
    invitation: {
      businessId: string;
      email: string;
      role: MemberRole;
      invitedBy: string | null;
      clientAddress?: string;
    },
    inTransaction?: EntityManager,
  ): Promise<string> {
    const token = newToken();
    const write = async (em: EntityManager) => {
      await em.query(
        `INSERT INTO gateway.member_invitations (token_hash, business_id, email, role, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 day')`,
        [
          tokenHash(token),
          invitation.businessId,
          invitation.email,
          invitation.role,
          invitation.invitedBy,
          invitationLifetimeDays,
        ],
      );
      await this.record(em, {
        businessId: invitation.businessId,
        actorKind: invitation.invitedBy ? 'member' : 'operator',
        actor: invitation.invitedBy ?? 'partner:create',
        action: 'member.invited',
        subject: `${invitation.email} as ${invitation.role}`,
        clientAddress: invitation.clientAddress,
      });
    };
    await (inTransaction ? write(inTransaction) : this.dataSource.transaction(write));
    return token;
  }

  async invitation(token: string): Promise<Invitation | undefined> {
    return firstRow<Invitation>(
      this.dataSource,
      `SELECT i.business_id, b.name AS business_name, i.email, i.role,
              (i.accepted_at IS NULL AND i.expires_at > now()) AS usable
       FROM gateway.member_invitations i JOIN gateway.businesses b ON b.id = i.business_id
       WHERE i.token_hash = $1`,
      [tokenHash(token)],
    );
  }

  /**
   * Uses the link once: the member it invited, with this password hash. The guarded update is
   * the link's lock, so two submissions of one link make one member. 'used' when the link no
   * longer works; 'taken' when its email has an account already (nothing is changed then).
   */
  async accept(token: string, passwordHash: string, clientAddress: string): Promise<Member | 'used' | 'taken'> {
    return this.dataSource.transaction(async (em) => {
      const [accepted] = (await em.query(
        `UPDATE gateway.member_invitations SET accepted_at = now()
         WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > now()
         RETURNING business_id, email, role`,
        [tokenHash(token)],
      )) as [{ business_id: string; email: string; role: MemberRole }[], number];
      const invited = accepted[0];
      if (!invited) return 'used';
      const member = await firstRow<{ id: string }>(
        em,
        `INSERT INTO gateway.members (id, business_id, email, role, password_hash) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (email) DO NOTHING RETURNING id`,
        [newUlid(), invited.business_id, invited.email, invited.role, passwordHash],
      );
      if (!member) {
        // The link stays usable: its email's owner may free it by leaving the other business.
        await em.query(`UPDATE gateway.member_invitations SET accepted_at = NULL WHERE token_hash = $1`, [
          tokenHash(token),
        ]);
        return 'taken';
      }
      await this.record(em, {
        businessId: invited.business_id,
        actorKind: 'member',
        actor: invited.email,
        action: 'member.joined',
        subject: `${invited.email} as ${invited.role}`,
        clientAddress,
      });
      return (await this.byId(member.id, em))!;
    });
  }

  async byEmail(email: string): Promise<MemberWithPassword | undefined> {
    return firstRow<MemberWithPassword>(
      this.dataSource,
      `SELECT ${memberColumns}, m.password_hash FROM gateway.members m JOIN gateway.businesses b ON b.id = m.business_id WHERE m.email = $1`,
      [email],
    );
  }

  async byId(id: string, em: EntityManager = this.dataSource.manager): Promise<Member | undefined> {
    return firstRow<Member>(
      em,
      `SELECT ${memberColumns} FROM gateway.members m JOIN gateway.businesses b ON b.id = m.business_id WHERE m.id = $1`,
      [id],
    );
  }

  /** The business's members, oldest first: what every member may see of the team. */
  async team(businessId: string): Promise<Pick<Member, 'id' | 'email' | 'role' | 'created_at'>[]> {
    return (await this.dataSource.query(
      `SELECT id, email, role, created_at FROM gateway.members WHERE business_id = $1 ORDER BY created_at, id`,
      [businessId],
    )) as Pick<Member, 'id' | 'email' | 'role' | 'created_at'>[];
  }

  /** A browser the member signed in on: a token for its cookie. */
  async rememberDevice(memberId: string): Promise<string> {
    const token = newToken();
    await this.dataSource.query(`INSERT INTO gateway.member_devices (token_hash, member_id) VALUES ($1, $2)`, [
      tokenHash(token),
      memberId,
    ]);
    return token;
  }

  async isDeviceOf(token: string | undefined, memberId: string): Promise<boolean> {
    if (!token) return false;
    const row = await firstRow(
      this.dataSource,
      `SELECT 1 FROM gateway.member_devices
       WHERE token_hash = $1 AND member_id = $2 AND created_at > now() - $3 * interval '1 day'`,
      [tokenHash(token), memberId, deviceLifetimeDays],
    );
    return row !== undefined;
  }

  /** An entry of its own, for a change whose work another service did (a refund by outlet-service). */
  async audit(event: AuditEvent): Promise<void> {
    await this.record(this.dataSource.manager, event);
  }

  async record(em: EntityManager, event: AuditEvent): Promise<void> {
    await em.query(
      `INSERT INTO gateway.audit_events (business_id, actor_kind, actor, action, subject, client_address)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        event.businessId,
        event.actorKind,
        event.actor,
        event.action,
        event.subject ?? null,
        event.clientAddress ?? null,
      ],
    );
  }
}
