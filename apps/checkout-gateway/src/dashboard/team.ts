import { Injectable } from '@nestjs/common';
import { firstRow } from '@payments/platform-database';
import { DataSource, EntityManager } from 'typeorm';

import { Member, MembersRepository } from './members.repository';
import { MemberRole } from './roles';

/** How a change to the team went: refused when it would leave the business without an owner. */
export type TeamChange = 'done' | 'last-owner' | 'not-found' | 'not-owner';

/**
 * An owner's changes to the team: invitations, roles, removals. Each change locks the
 * business's row first, so that two owners demoting or removing each other at once cannot both
 * pass the check that one owner remains. A member is found within the owner's business only.
 */
@Injectable()
export class Team {
  constructor(
    private readonly dataSource: DataSource,
    private readonly members: MembersRepository,
  ) {}

  /** A one-time link for `email` to join as `role`: shown to the owner, who sends it on. */
  async invite(owner: Member, email: string, role: MemberRole, clientAddress: string): Promise<string | 'not-owner'> {
    let token: string | undefined;
    const change = await this.asOwner(owner, async (em) => {
      token = await this.members.invite(
        { businessId: owner.business_id, email, role, invitedBy: owner.email, clientAddress },
        em,
      );
      return 'done';
    });
    return change === 'done' && token ? token : 'not-owner';
  }

  async changeRole(owner: Member, memberId: string, role: MemberRole, clientAddress: string): Promise<TeamChange> {
    return this.asOwner(owner, async (em) => {
      const [changed] = (await em.query(
        `UPDATE gateway.members SET role = $3
         WHERE id = $2 AND business_id = $1 AND ($3 = 'owner' OR role <> 'owner' OR ${moreThanOneOwner})
         RETURNING email`,
        [owner.business_id, memberId, role],
      )) as [{ email: string }[], number];
      if (changed.length === 0) return this.whyNot(em, owner, memberId);
      if (role !== 'owner') await this.withdrawInvitations(em, owner.business_id, changed[0].email);
      await this.record(em, owner, 'member.role-changed', `${changed[0].email} to ${role}`, clientAddress);
      return 'done';
    });
  }

  /** Removes a member (their sessions end with them); an owner is not removed by themselves. */
  async remove(owner: Member, memberId: string, clientAddress: string): Promise<TeamChange> {
    if (memberId === owner.id) return 'not-found';
    return this.asOwner(owner, async (em) => {
      const [removed] = (await em.query(
        `DELETE FROM gateway.members
         WHERE id = $2 AND business_id = $1 AND (role <> 'owner' OR ${moreThanOneOwner})
         RETURNING email, role`,
        [owner.business_id, memberId],
      )) as [{ email: string; role: MemberRole }[], number];
      if (removed.length === 0) return this.whyNot(em, owner, memberId);
      await this.withdrawInvitations(em, owner.business_id, removed[0].email);
      await this.record(em, owner, 'member.removed', `${removed[0].email} (${removed[0].role})`, clientAddress);
      return 'done';
    });
  }

  /** Runs `change` with the business locked, if `owner` is still one of its owners. */
  private asOwner(owner: Member, change: (em: EntityManager) => Promise<TeamChange>): Promise<TeamChange> {
    return this.dataSource.transaction(async (em) => {
      // NO KEY UPDATE: team changes queue behind each other, while a sign-up's foreign-key check
      // (a KEY SHARE lock) does not wait for them; with FOR UPDATE a withdrawal and a sign-up of
      // the same link could deadlock.
      await em.query(`SELECT 1 FROM gateway.businesses WHERE id = $1 FOR NO KEY UPDATE`, [owner.business_id]);
      const acting = await firstRow<{ role: MemberRole }>(
        em,
        `SELECT role FROM gateway.members WHERE id = $1 AND business_id = $2`,
        [owner.id, owner.business_id],
      );
      return acting?.role === 'owner' ? change(em) : 'not-owner';
    });
  }

  /** The links a member made stop working once they are no longer an owner: nobody comes back through them. */
  private async withdrawInvitations(em: EntityManager, businessId: string, invitedBy: string): Promise<void> {
    await em.query(
      `UPDATE gateway.member_invitations SET expires_at = now()
       WHERE business_id = $1 AND invited_by = $2 AND accepted_at IS NULL AND expires_at > now()`,
      [businessId, invitedBy],
    );
  }

  private async whyNot(em: EntityManager, owner: Member, memberId: string): Promise<TeamChange> {
    const member = await firstRow(em, `SELECT 1 FROM gateway.members WHERE id = $1 AND business_id = $2`, [
      memberId,
      owner.business_id,
    ]);
    return member ? 'last-owner' : 'not-found';
  }

  private record(em: EntityManager, owner: Member, action: string, subject: string, clientAddress: string) {
    return this.members.record(em, {
      businessId: owner.business_id,
      actorKind: 'member',
      actor: owner.email,
      action,
      subject,
      clientAddress,
    });
  }
}

/** With the business's row locked, the count every team change of the business sees alike. */
const moreThanOneOwner = `(SELECT count(*) FROM gateway.members WHERE business_id = $1 AND role = 'owner') > 1`;
