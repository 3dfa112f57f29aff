// Verifies a partner feed signature: ECDSA with SHA-256 over the exact bytes
// of the body, checked against the partner public key named by the key
// identifier header (keys from config; several may be current during rotation).
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { SecretScanningKey } from '../config.js';

export type SignatureVerifier = (body: Buffer, keyIdentifier: string | undefined, signature: string | undefined) => boolean;

export function createSignatureVerifier(keys: readonly SecretScanningKey[]): SignatureVerifier {
  const byId = new Map<string, KeyObject>();
  for (const key of keys) byId.set(key.keyIdentifier, createPublicKey(key.publicKeyPem));
  return (body, keyIdentifier, signature) => {
    if (!keyIdentifier || !signature) return false;
    const publicKey = byId.get(keyIdentifier);
    if (!publicKey) return false;
    try {
      return verify('sha256', body, publicKey, Buffer.from(signature, 'base64'));
    } catch {
      return false;
    }
  };
}
