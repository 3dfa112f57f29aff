// Generating, hashing and recognising API key strings. Keys carry 256 random
// bits, so a single SHA-256 is a safe storage hash (no slow KDF is needed for
// high-entropy secrets) and lets the lookup hit a unique index.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyKind = 'secret' | 'publishable';

const KEY_PATTERN = /^(sk|pk)_(test|live)_[A-Za-z0-9]{43,64}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function keyPrefix(kind: KeyKind, livemode: boolean): string {
  return `${kind === 'secret' ? 'sk' : 'pk'}_${livemode ? 'live' : 'test'}_`;
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniformly distributed.
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generateKey(kind: KeyKind, livemode: boolean): string {
  return keyPrefix(kind, livemode) + randomBase62(48);
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export type ParsedKey = { kind: KeyKind; livemode: boolean };

/** Reads kind and mode from a key's prefix; null when it is not shaped like one of ours. */
export function parseKey(key: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  return { kind: match[1] === 'sk' ? 'secret' : 'publishable', livemode: match[2] === 'live' };
}

/** Constant-time equality of two hashes. */
export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
