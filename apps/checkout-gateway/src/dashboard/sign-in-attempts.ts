import { Injectable } from '@nestjs/common';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { DataSource } from 'typeorm';

import { tokenHash } from './tokens';

/**
 * How many sign-ins each key may try in its window, narrowest first. From a browser the member
 * signed in on before, only that browser's own attempts count: nobody else's guesses, from any
 * address (a shared NAT included), hold it back. From any other browser, the pair of an email
 * and an address is held back soonest (a guesser at one address stops there), then the address,
 * then the account: well above what one address may add to it (20 an hour), so that it takes
 * guessing from many addresses at once to hold back the account's new browsers.
 */
export const signInLimits = {
  device: { attempts: 10, windowMinutes: 15 },
  pair: { attempts: 5, windowMinutes: 15 },
  address: { attempts: 50, windowMinutes: 15 },
  account: { attempts: 100, windowMinutes: 60 },
  /** Codes tried in one sign-in waiting for its code: then it ends, and the password is asked again. */
  code: { attempts: 5, windowMinutes: 15 },
  /** Wrong codes for one member in a day, however many sign-ins they are spread over (NIST SP 800-63B's 100). */
  codeStreak: { attempts: 100, windowMinutes: 24 * 60 },
} as const;

type LimitName = keyof typeof signInLimits;
export type AttemptKeys = Partial<Record<LimitName, string>>;

/**
 * The keys one sign-in is counted under: its device's alone when it comes from a browser the
 * member signed in on. The same for a member with a second factor as for anyone, so that
 * neither the answers nor the time taken tell them apart. Emails are kept as hashes.
 */
export function attemptKeys(email: string, address: string | undefined, knownDevice?: string): AttemptKeys {
  if (knownDevice) return { device: `device:${tokenHash(knownDevice)}` };
  const addressKey = clientAddressKey(address);
  return {
    pair: `pair:${tokenHash(`${email}\n${addressKey}`)}`,
    address: `address:${addressKey}`,
    account: `account:${tokenHash(email)}`,
  };
}

/** The keys a sign-in's code is counted under: its waiting session's, and the member's streak of wrong codes. */
export function codeKeys(waitingSessionToken: string, memberId: string): AttemptKeys {
  return { code: `code:${tokenHash(waitingSessionToken)}`, codeStreak: `code-streak:${memberId}` };
}

/**
 * gateway.sign_in_attempts. An attempt takes its place in every window before the password is
 * checked, in one statement each: however many arrive at once, no more than a window's limit
 * are ever checked.
 */
@Injectable()
export class SignInAttempts {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Counts an attempt under each key, narrowest first; false at the first that is over its
   * limit. A refused attempt goes no further: guesses held back at their own address never fill
   * the wider windows (the address's, the account's) that others share.
   */
  async admit(keys: AttemptKeys): Promise<boolean> {
    for (const [name, key] of Object.entries(keys) as [LimitName, string][]) {
      const limit = signInLimits[name];
      const [{ attempts }] = (await this.dataSource.query(
        `INSERT INTO gateway.sign_in_attempts AS a (key, attempts, window_started_at) VALUES ($1, 1, now())
         ON CONFLICT (key) DO UPDATE SET
           attempts = CASE WHEN a.window_started_at < now() - $2 * interval '1 minute' THEN 1 ELSE a.attempts + 1 END,
           window_started_at = CASE WHEN a.window_started_at < now() - $2 * interval '1 minute' THEN now() ELSE a.window_started_at END
         RETURNING attempts`,
        [key, limit.windowMinutes],
      )) as { attempts: number }[];
      if (attempts > limit.attempts) return false;
    }
    return true;
  }

  /**
   * A sign-in (or its code) that succeeded: its own windows (device, pair, code, the streak of
   * wrong codes) start afresh, and it does not count against its address. The account's window
   * runs out by itself: a member signing in on their own browser does not hand a guesser
   * elsewhere a fresh allowance.
   */
  async succeeded(keys: AttemptKeys): Promise<void> {
    const own = [keys.device, keys.pair, keys.code, keys.codeStreak].filter((key) => key !== undefined);
    await this.dataSource.query(`DELETE FROM gateway.sign_in_attempts WHERE key = ANY($1)`, [own]);
    if (keys.address) {
      await this.dataSource.query(
        `UPDATE gateway.sign_in_attempts SET attempts = greatest(attempts - 1, 0) WHERE key = $1`,
        [keys.address],
      );
    }
  }

  /** Windows older than the longest, which count nothing any more. */
  async sweep(): Promise<number> {
    const longest = Math.max(...Object.values(signInLimits).map((limit) => limit.windowMinutes));
    const [, swept] = (await this.dataSource.query(
      `DELETE FROM gateway.sign_in_attempts WHERE window_started_at < now() - $1 * interval '1 minute'`,
      [longest],
    )) as [unknown, number];
    return swept;
  }
}
