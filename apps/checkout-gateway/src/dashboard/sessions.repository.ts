import { Injectable } from '@nestjs/common';
import { firstRow } from '@payments/platform-database';
import { DataSource } from 'typeorm';

import { Member } from './members.repository';
import { newToken, tokenHash } from './tokens';

/**
 * A session ends this long after it began, whatever happens, and sooner when the member has not
 * been seen for `idleMinutes`.
 */
export const sessionLifetime = { hours: 12, idleMinutes: 30 } as const;

/** gateway.member_sessions: the token is the cookie's, and only its hash is kept. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A new session's token. */
  async start(memberId: string, clientAddress: string): Promise<string> {
    const token = newToken();
    await this.dataSource.query(
      `INSERT INTO gateway.member_sessions (token_hash, member_id, client_address, expires_at)
       VALUES ($1, $2, $3, now() + $4 * interval '1 hour')`,
      [tokenHash(token), memberId, clientAddress, sessionLifetime.hours],
    );
    return token;
  }

  /**
   * The member whose live session `token` is, and the session seen now. Seen is written at
   * most once a minute: a page's every request does not write.
   */
  async member(token: string): Promise<Member | undefined> {
    const hash = tokenHash(token);
    const row = await firstRow<Member & { seen_long_ago: boolean }>(
      this.dataSource,
      `SELECT m.id, m.business_id, b.name AS business_name, m.email, m.role, m.password_hash, m.created_at,
              s.seen_at < now() - interval '1 minute' AS seen_long_ago
       FROM gateway.member_sessions s
       JOIN gateway.members m ON m.id = s.member_id
       JOIN gateway.businesses b ON b.id = m.business_id
       WHERE s.token_hash = $1 AND s.expires_at > now() AND s.seen_at > now() - $2 * interval '1 minute'`,
      [hash, sessionLifetime.idleMinutes],
    );
    if (!row) return undefined;
    const { seen_long_ago: seenLongAgo, ...member } = row;
    if (seenLongAgo) {
      await this.dataSource.query(`UPDATE gateway.member_sessions SET seen_at = now() WHERE token_hash = $1`, [hash]);
    }
    return member;
  }

  async end(token: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM gateway.member_sessions WHERE token_hash = $1`, [tokenHash(token)]);
  }

  /** Every session of the member: signed out everywhere. */
  async endAll(memberId: string): Promise<number> {
    const [, ended] = (await this.dataSource.query(`DELETE FROM gateway.member_sessions WHERE member_id = $1`, [
      memberId,
    ])) as [unknown, number];
    return ended;
  }

  /** Sessions past their end, deleted so the table holds live ones only. */
  async sweep(): Promise<number> {
    const [, swept] = (await this.dataSource.query(
      `DELETE FROM gateway.member_sessions
       WHERE expires_at < now() OR seen_at < now() - $1 * interval '1 minute'`,
      [sessionLifetime.idleMinutes],
    )) as [unknown, number];
    return swept;
  }
}
