import { Injectable } from '@nestjs/common';
import { firstRow } from '@payments/platform-database';
import { DataSource } from 'typeorm';

import { deviceLifetimeDays, Member, memberColumns } from './members.repository';
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

  /**
   * A new session's token. One begun with the password alone waits for the member's code, for
   * a few minutes at most, and shows no page until then.
   */
  async start(memberId: string, clientAddress: string, awaitingCode = false): Promise<string> {
    const token = newToken();
    await this.dataSource.query(
      `INSERT INTO gateway.member_sessions (token_hash, member_id, client_address, awaiting_code, expires_at)
       VALUES ($1, $2, $3, $4, now() + CASE WHEN $4 THEN interval '5 minutes' ELSE $5 * interval '1 hour' END)`,
      [tokenHash(token), memberId, clientAddress, awaitingCode, sessionLifetime.hours],
    );
    return token;
  }

  /**
   * The member whose live session `token` is, and whether it still waits for their code; the
   * session is seen now. Seen is written at most once a minute: a page's every request does
   * not write.
   */
  async find(token: string): Promise<{ member: Member; awaitingCode: boolean } | undefined> {
    const hash = tokenHash(token);
    const row = await firstRow<Member & { seen_long_ago: boolean; awaiting_code: boolean }>(
      this.dataSource,
      `SELECT ${memberColumns}, s.awaiting_code, s.seen_at < now() - interval '1 minute' AS seen_long_ago
       FROM gateway.member_sessions s
       JOIN gateway.members m ON m.id = s.member_id
       JOIN gateway.businesses b ON b.id = m.business_id
       WHERE s.token_hash = $1 AND s.expires_at > now() AND s.seen_at > now() - $2 * interval '1 minute'`,
      [hash, sessionLifetime.idleMinutes],
    );
    if (!row) return undefined;
    const { seen_long_ago: seenLongAgo, awaiting_code: awaitingCode, ...member } = row;
    if (seenLongAgo) {
      await this.dataSource.query(`UPDATE gateway.member_sessions SET seen_at = now() WHERE token_hash = $1`, [hash]);
    }
    return { member, awaitingCode };
  }

  async end(token: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM gateway.member_sessions WHERE token_hash = $1`, [tokenHash(token)]);
  }

  /** Every session of the member: signed out everywhere. */
  async endAll(memberId: string): Promise<number> {
    const [, ended] = (await this.dataSource.query(`DELETE FROM gateway.member_sessions WHERE member_id = $1`, [
      memberId,
    ])) as [unknown, number];
    // The browsers remembered go too: each must sign in afresh to count as the member's again.
    await this.dataSource.query(`DELETE FROM gateway.member_devices WHERE member_id = $1`, [memberId]);
    return ended;
  }

  /**
   * Sessions past their end, and browsers remembered longer than their cookie lives, deleted so
   * the tables hold live ones only.
   */
  async sweep(): Promise<number> {
    const [, swept] = (await this.dataSource.query(
      `DELETE FROM gateway.member_sessions
       WHERE expires_at < now() OR seen_at < now() - $1 * interval '1 minute'`,
      [sessionLifetime.idleMinutes],
    )) as [unknown, number];
    const [, forgotten] = (await this.dataSource.query(
      `DELETE FROM gateway.member_devices WHERE created_at < now() - $1 * interval '1 day'`,
      [deviceLifetimeDays],
    )) as [unknown, number];
    return swept + forgotten;
  }
}
