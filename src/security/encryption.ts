// Encryption at rest for secrets the service must read back (TOTP secrets, a
// replacement key awaiting its one reveal, webhook signing secrets):
// AES-256-GCM with a random 96-bit nonce, stored as
// version byte | nonce | tag | ciphertext. An optional context (e.g. the row's
// id) is bound in as associated data, so a ciphertext copied to another row
// does not decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;

export type SecretBox = {
  seal(plaintext: string, context?: string): Buffer;
  open(sealed: Buffer, context?: string): string;
};

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  return {
    seal(plaintext, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
    },
    open(sealed, context) {
      if (sealed[0] !== VERSION) throw new Error('Unknown sealed secret version');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
      if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(sealed.subarray(13, 29));
      return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
    },
  };
}
