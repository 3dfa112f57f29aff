import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { decryptSecret, encryptSecret, generateSigningSecret, secretPrefix } from '../../src/webhooks/secrets.js';
import { parseRetryAfter } from '../../src/webhooks/sender.js';
import { signPayload } from '../../src/webhooks/signing.js';

describe('webhook secrets and signatures', () => {
  it('generates Standard Webhooks secrets and shows only a prefix', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretPrefix(secret)).toBe(secret.slice(0, 12));
    expect(generateSigningSecret()).not.toBe(secret);
  });

  it('encrypts at rest bound to the endpoint id', () => {
    const key = randomBytes(32);
    const secret = generateSigningSecret();
    const stored = encryptSecret(key, 'we_A', secret);
    expect(stored.toString('latin1')).not.toContain(secret.slice(6));
    expect(decryptSecret(key, 'we_A', stored)).toBe(secret);
    expect(() => decryptSecret(key, 'we_B', stored)).toThrow();
    expect(() => decryptSecret(randomBytes(32), 'we_A', stored)).toThrow();
  });

  it('signs the exact bytes so the standardwebhooks library verifies with each secret', () => {
    const [a, b] = [generateSigningSecret(), generateSigningSecret()];
    const body = Buffer.from('{"id":"evt_1","amount":"10000000","note":"caf\u00e9"}', 'utf8');
    const now = Math.floor(Date.now() / 1000);
    const headers = signPayload([a, b], 'evt_1', now, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(a).verify(body.toString('utf8'), { ...headers })).toMatchObject({ id: 'evt_1' });
    expect(new Webhook(b).verify(body.toString('utf8'), { ...headers })).toMatchObject({ id: 'evt_1' });
    expect(() => new Webhook(generateSigningSecret()).verify(body.toString('utf8'), { ...headers })).toThrow();
    const reserialised = JSON.stringify(JSON.parse(body.toString('utf8')), null, 1);
    expect(() => new Webhook(a).verify(reserialised, { ...headers })).toThrow();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 1)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(60);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});

describe('webhook configuration', () => {
  const base = { DATABASE_URL: 'postgres://x' };
  it('refuses production without an encryption key or with private targets', () => {
    // Production also needs the accounts' key; each at-rest secret kind has its own key.
    const production = { ...base, NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    expect(() => loadConfig(production)).toThrow(/WEBHOOK_SECRET_ENCRYPTION_KEY/);
    const key = randomBytes(32);
    expect(loadConfig({ ...production, WEBHOOK_SECRET_ENCRYPTION_KEY: key.toString('hex') }).webhooks.secretEncryptionKey).toEqual(key);
    expect(loadConfig({ ...production, WEBHOOK_SECRET_ENCRYPTION_KEY: key.toString('base64') }).webhooks.secretEncryptionKey).toEqual(key);
    expect(() =>
      loadConfig({ ...production, WEBHOOK_SECRET_ENCRYPTION_KEY: key.toString('hex'), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }),
    ).toThrow(/PRIVATE_TARGETS/);
    expect(() => loadConfig({ ...base, WEBHOOK_SECRET_ENCRYPTION_KEY: 'short' })).toThrow(/32 bytes/);
  });

  it('defaults to a development key and private targets off', () => {
    const config = loadConfig(base);
    expect(config.webhooks.secretEncryptionKey).toHaveLength(32);
    expect(config.webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhooks.allowPrivateTargets).toBe(true);
  });
});
