import { createCipheriv, randomBytes } from 'node:crypto';

/**
 * A value as releases before key rings sealed it: `v1.`, naming no key. Written here rather
 * than by a Sealer set to `v1`, so that a test of how rings open such values does not rest on
 * the code it tests.
 */
export function sealedBeforeRings(key: string, text: string, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
  cipher.setAAD(Buffer.from(boundTo));
  const body = Buffer.concat([cipher.update(text), cipher.final()]);
  return `v1.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}
