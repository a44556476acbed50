import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { deviceLifetimeDays } from './members.repository';

/**
 * `__Host-` cookies: sent only to this host, over HTTPS, for every path, and no subdomain can
 * set one in their place. HttpOnly, so no script reads them; SameSite, so no other site's page
 * posts with them.
 */
export const cookieNames = {
  session: '__Host-dashboard-session',
  device: '__Host-dashboard-device',
  /** A form's token before anyone is signed in (sign-in and sign-up), for their CSRF token. */
  form: '__Host-dashboard-form',
} as const;

type CookieName = keyof typeof cookieNames;

const lifetimesSeconds: Record<CookieName, number | undefined> = {
  session: undefined,
  device: deviceLifetimeDays * 24 * 3600,
  form: undefined,
};

export function readCookie(request: FastifyRequest, name: CookieName): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const value = parse(header)[cookieNames[name]];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

export function setCookie(reply: FastifyReply, name: CookieName, value: string): void {
  appendCookie(
    reply,
    serialize(cookieNames[name], value, {
      path: '/',
      secure: true,
      httpOnly: true,
      // Lax: a link to the dashboard from an email opens it signed in; every change still needs its form token.
      sameSite: name === 'session' ? 'lax' : 'strict',
      maxAge: lifetimesSeconds[name],
    }),
  );
}

export function clearCookie(reply: FastifyReply, name: CookieName): void {
  appendCookie(reply, serialize(cookieNames[name], '', { path: '/', secure: true, httpOnly: true, maxAge: 0 }));
}

function appendCookie(reply: FastifyReply, cookie: string): void {
  const current = reply.getHeader('set-cookie');
  const cookies = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
  void reply.header('set-cookie', [...cookies, cookie]);
}
