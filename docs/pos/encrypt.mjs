// Encrypts a POS payload for POST /pos (Node.js, no dependencies).
//   node encrypt.mjs <pos-key> '<payload JSON>'
import { createCipheriv } from 'node:crypto';

export function encryptPosPayload(payloadJson, key) {
  const keyBytes = Buffer.alloc(16); // exactly 16 bytes: zero-padded or truncated
  Buffer.from(key, 'utf8').copy(keyBytes, 0, 0, 16);
  const cipher = createCipheriv('aes-128-ecb', keyBytes, null); // PKCS#7 padding by default
  return Buffer.concat([cipher.update(payloadJson, 'utf8'), cipher.final()]).toString('base64');
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  console.log(encryptPosPayload(process.argv[3], process.argv[2]));
}
