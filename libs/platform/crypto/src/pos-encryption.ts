import { createCipheriv, createDecipheriv } from 'node:crypto';

const blockSize = 16;
const strictBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Holds no state between calls (fatal, not streaming): one for all, rather than one per payload.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The interface's key rule: exactly 16 bytes, right-padded with zero bytes or truncated. */
export function adjustPosKey(key: string): Buffer {
  const bytes = Buffer.from(key, 'utf8');
  const adjusted = Buffer.alloc(blockSize);
  bytes.copy(adjusted, 0, 0, Math.min(bytes.length, blockSize));
  return adjusted;
}

/** What a terminal does: JSON, PKCS#7 padding, AES-128-ECB, base64. */
export function encryptPosPayload(payload: unknown, key: string): string {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const cipher = createCipheriv('aes-128-ecb', adjustPosKey(key), null);
  return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}

/** Why a submission's data did not open into a payload: told to metrics only, never to the caller. */
export type PosDecryptFailure = 'not_base64' | 'not_whole_blocks' | 'bad_padding' | 'not_utf8' | 'not_json_object';

/**
 * The reverse, strictly, with the reason when it fails: bad base64, a length that is not a
 * whole number of blocks, wrong padding (most often the wrong key), bytes that are not UTF-8,
 * JSON that is not an object. Callers answer every one of these the same way, so the endpoint
 * cannot be used as a padding oracle; the reason is for the operator's metrics.
 */
export function openPosPayload(
  data: string,
  key: string,
): { payload: Record<string, unknown> } | { failure: PosDecryptFailure } {
  if (!strictBase64.test(data)) return { failure: 'not_base64' };
  const ciphertext = Buffer.from(data, 'base64');
  if (ciphertext.length === 0 || ciphertext.length % blockSize !== 0) return { failure: 'not_whole_blocks' };
  const decipher = createDecipheriv('aes-128-ecb', adjustPosKey(key), null);
  decipher.setAutoPadding(false);
  const padded = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  const padLength = padded[padded.length - 1];
  if (padLength < 1 || padLength > blockSize) return { failure: 'bad_padding' };
  for (let i = padded.length - padLength; i < padded.length; i += 1) {
    if (padded[i] !== padLength) return { failure: 'bad_padding' };
  }
  let text: string;
  try {
    text = strictUtf8.decode(padded.subarray(0, padded.length - padLength));
  } catch {
    return { failure: 'not_utf8' };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? { payload: parsed as Record<string, unknown> }
      : { failure: 'not_json_object' };
  } catch {
    return { failure: 'not_json_object' };
  }
}

/** The payload, or null for anything that is not exactly what a terminal would send (openPosPayload). */
export function decryptPosPayload(data: string, key: string): Record<string, unknown> | null {
  const opened = openPosPayload(data, key);
  return 'payload' in opened ? opened.payload : null;
}
