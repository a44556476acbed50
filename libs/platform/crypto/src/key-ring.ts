import { createHash } from 'node:crypto';

/** One key of a ring: its bytes and the id sealed values name it by. */
export interface RingKey {
  readonly id: string;
  readonly bytes: Buffer;
}

/**
 * A key's id: a short digest of it, so that a ring needs no names and the same key has the
 * same id in every app. Eight base64url characters; it tells nothing of the key.
 */
export function keyIdOf(bytes: Buffer): string {
  return createHash('sha256').update('payments key id\0').update(bytes).digest().subarray(0, 6).toString('base64url');
}

/**
 * The keys of one purpose, as a setting lists them: comma-separated 32-byte keys in base64,
 * the first the one that seals, every one able to open. A rotation adds the new key second
 * (every app can then open what it will seal), moves it first, and drops the old one once
 * nothing sealed under it is kept (docs/operations.md, "Rotating keys").
 */
export class KeyRing {
  readonly current: RingKey;
  private readonly byId: ReadonlyMap<string, RingKey>;

  constructor(readonly keys: readonly RingKey[]) {
    if (keys.length === 0) throw new Error('a key ring needs at least one key');
    this.current = keys[0];
    this.byId = new Map(keys.map((key) => [key.id, key]));
    if (this.byId.size !== keys.length) throw new Error('a key ring lists the same key twice');
  }

  /** The ring a setting lists; throws, naming the purpose, unless each entry is a 32-byte base64 key. */
  static parse(setting: string, purpose = 'a sealing key'): KeyRing {
    const keys = setting.split(',').map((entry, index) => {
      const bytes = Buffer.from(entry.trim(), 'base64');
      if (bytes.length !== 32) {
        throw new Error(`${purpose}: entry ${index + 1} must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
      }
      return { id: keyIdOf(bytes), bytes };
    });
    return new KeyRing(keys);
  }

  /** The key named `id`, if the ring holds it. */
  find(id: string): RingKey | undefined {
    return this.byId.get(id);
  }
}
