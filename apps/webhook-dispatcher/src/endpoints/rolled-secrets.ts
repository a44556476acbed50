import { Sealer } from '@payments/platform-crypto';

/**
 * Secrets rolled away before the previous one and still within their grace, at most this many:
 * a roll that finds them all in use drops the newest of them, never the oldest, which is the
 * one a partner that lost a roll's answer still has deployed.
 */
export const maxOlderSecrets = 3;

/** The columns an endpoint keeps its rolled-away secrets in, as read from the database. */
export interface RolledSecretColumns {
  previous_signing_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  /** Oldest first; `expiresAt` as PostgreSQL writes a timestamptz into JSON. */
  older_signing_secrets: { sealed: string; expiresAt: string }[];
}

/** Every secret an endpoint rolled away whose grace still lasts (newest first), and when the last of them ends. */
export function rolledSecrets(
  sealer: Sealer,
  row: RolledSecretColumns,
  boundTo: string,
  now = new Date(),
): { previousSigningSecrets: string[]; previousSecretExpiresAt: Date | null } {
  const rolled = [
    { sealed: row.previous_signing_secret_sealed, expiresAt: row.previous_secret_expires_at },
    ...row.older_signing_secrets.map(({ sealed, expiresAt }) => ({ sealed, expiresAt: new Date(expiresAt) })),
  ].filter((secret): secret is { sealed: string; expiresAt: Date } => !!secret.sealed && secret.expiresAt! > now);
  if (rolled.length === 0) return { previousSigningSecrets: [], previousSecretExpiresAt: null };
  return {
    previousSigningSecrets: rolled.map((secret) => sealer.open(secret.sealed, boundTo)),
    previousSecretExpiresAt: new Date(Math.max(...rolled.map((secret) => secret.expiresAt.getTime()))),
  };
}

/**
 * Rolls the secret of the row whose `key` is $1 to $2 (sealed): the current secret keeps signing
 * for $3 hours, and every secret rolled away earlier keeps signing until its own expiry. So a
 * roll repeated because its answer was lost never ends the grace of the secret deployed.
 */
export function rollSecretStatement(table: 'endpoints' | 'partner_endpoints', key: 'business_id' | 'id'): string {
  return `UPDATE webhooks.${table} SET
      older_signing_secrets = (
        SELECT coalesce(jsonb_agg(kept.secret ORDER BY kept.n), '[]'::jsonb) FROM (
          SELECT secret, n FROM jsonb_array_elements(older_signing_secrets || CASE WHEN previous_secret_expires_at > now()
              THEN jsonb_build_array(jsonb_build_object('sealed', previous_signing_secret_sealed, 'expiresAt', previous_secret_expires_at))
              ELSE '[]'::jsonb END) WITH ORDINALITY AS rolled (secret, n)
          WHERE (secret->>'expiresAt')::timestamptz > now() ORDER BY n LIMIT ${maxOlderSecrets}
        ) kept),
      previous_signing_secret_sealed = signing_secret_sealed,
      previous_secret_expires_at = now() + make_interval(hours => $3),
      signing_secret_sealed = $2, updated_at = now()
    WHERE ${key} = $1`;
}
