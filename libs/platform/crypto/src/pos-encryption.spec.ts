import { execFileSync } from 'node:child_process';
import { createCipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import fc from 'fast-check';

import { adjustPosKey, decryptPosPayload, encryptPosPayload, openPosPayload } from './pos-encryption';

const docs = resolve(__dirname, '../../../../docs/pos');
const vectors = JSON.parse(readFileSync(resolve(docs, 'test-vectors.json'), 'utf8')) as {
  description: string;
  key: string;
  payload: string;
  data: string;
}[];

describe('POS encryption', () => {
  it('pads a short key with zero bytes and truncates a long one', () => {
    expect(adjustPosKey('abc')).toEqual(Buffer.concat([Buffer.from('abc'), Buffer.alloc(13)]));
    expect(adjustPosKey('0123456789abcdefXYZ')).toEqual(Buffer.from('0123456789abcdef'));
  });

  it.each(vectors.map((vector) => [vector.description, vector] as const))(
    'reproduces the shared vector: %s',
    (_name, vector) => {
      expect(encryptPosPayload(vector.payload, vector.key)).toBe(vector.data);
      expect(decryptPosPayload(vector.data, vector.key)).toEqual(JSON.parse(vector.payload));
    },
  );

  it.each([
    [
      'Node',
      (key: string, payload: string) => execFileSync(process.execPath, [resolve(docs, 'encrypt.mjs'), key, payload]),
    ],
    // Debian's python3, where python3-cryptography is installed.
    [
      'Python',
      (key: string, payload: string) => execFileSync('/usr/bin/python3', [resolve(docs, 'encrypt.py'), key, payload]),
    ],
    ['PHP', (key: string, payload: string) => execFileSync('php', [resolve(docs, 'encrypt.php'), key, payload])],
  ])('the documented %s snippet produces every shared vector', (_language, run) => {
    for (const vector of vectors) expect(run(vector.key, vector.payload).toString().trim()).toBe(vector.data);
  });

  it('round-trips any JSON object under any key', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.string({ unit: 'grapheme' })),
        fc.string({ maxLength: 40 }),
        (payload, key) => {
          expect(decryptPosPayload(encryptPosPayload(payload, key), key)).toEqual(payload);
        },
      ),
    );
  });

  it('rejects, without throwing, anything a terminal would not send', () => {
    const key = 'AbCdEfGh12345678';
    const valid = encryptPosPayload({ a: 'b' }, key);
    for (const data of [
      '',
      'not base64!',
      valid.slice(0, -4),
      `${valid}=`,
      Buffer.alloc(15).toString('base64'),
      encryptPosPayload('[1,2]', key),
      encryptPosPayload('"text"', key),
    ]) {
      expect(decryptPosPayload(data, key)).toBeNull();
    }
    expect(decryptPosPayload(valid, 'another-key-0000')).toBeNull();
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 96 }), (bytes) => {
        const result = decryptPosPayload(Buffer.from(bytes).toString('base64'), key);
        return result === null || typeof result === 'object';
      }),
    );
  });

  it('tells the operator why data did not open, each failure by its own reason', () => {
    const key = 'AbCdEfGh12345678';
    const valid = encryptPosPayload({ a: 'b' }, key);
    const invalidUtf8 = createCipheriv('aes-128-ecb', adjustPosKey(key), null);
    const cases: [string, string][] = [
      ['not base64!', 'not_base64'],
      ['', 'not_whole_blocks'],
      [Buffer.alloc(15).toString('base64'), 'not_whole_blocks'],
      [valid, 'payload'],
      [
        Buffer.concat([invalidUtf8.update(Buffer.from([0xc0, 0x80])), invalidUtf8.final()]).toString('base64'),
        'not_utf8',
      ],
      [encryptPosPayload('[1,2]', key), 'not_json_object'],
      [encryptPosPayload('{"a":', key), 'not_json_object'],
    ];
    for (const [data, expected] of cases) {
      const opened = openPosPayload(data, key);
      expect([data, 'payload' in opened ? 'payload' : opened.failure]).toEqual([data, expected]);
    }
    // Under another key, the padding almost never comes out right.
    expect(openPosPayload(encryptPosPayload({ amount: '1000', pan: '5061' }, key), 'another-key-0000')).toEqual({
      failure: 'bad_padding',
    });
  });
});
