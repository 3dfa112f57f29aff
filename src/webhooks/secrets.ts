// Webhook signing secrets: generated in the Standard Webhooks format
// (`whsec_` + base64 of 32 random bytes), encrypted at rest with AES-256-GCM
// under the key from WEBHOOK_SECRET_ENCRYPTION_KEY, the endpoint id bound in
// as associated data (a ciphertext copied to another row does not decrypt).
import { randomBytes } from 'node:crypto';
import { createSecretBox } from '../security/encryption.js';

export const SECRET_PREFIX = 'whsec_';
/** How many characters of the secret `signingSecretPrefix` shows (prefix included). */
export const SHOWN_PREFIX_LENGTH = SECRET_PREFIX.length + 6;

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function secretPrefix(secret: string): string {
  return secret.slice(0, SHOWN_PREFIX_LENGTH);
}

/** The HMAC key a `whsec_` secret denotes. */
export function secretKeyBytes(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a whsec_ secret');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** Seals a signing secret under the webhook key, bound to its endpoint id. */
export function encryptSecret(key: Buffer, endpointId: string, secret: string): Buffer {
  return createSecretBox(key).seal(secret, endpointId);
}

export function decryptSecret(key: Buffer, endpointId: string, stored: Buffer): string {
  return createSecretBox(key).open(stored, endpointId);
}
