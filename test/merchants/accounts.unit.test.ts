import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { liveModeEligibility } from '../../src/merchants/eligibility.js';
import { isCountryCode } from '../../src/merchants/schemas.js';
import { createSecretBox } from '../../src/security/encryption.js';
import { parseMail } from '../../tools/dev/smtp-sink.js';
import { looksLikeApiKey } from '../../src/plugins/auth.js';
import { scopesForNewKey } from '../../src/api-keys/service.js';
import { parseMode } from '../../src/dashboard-sessions/service.js';

describe('live-mode eligibility', () => {
  const none = { email: null, emailVerifiedAt: null, totpEnabledAt: null, onboardedAt: null };
  it('names every unmet check', () => {
    const result = liveModeEligibility(none);
    expect(result.eligible).toBe(false);
    expect(result.reasons.map((r) => [r.check, r.code])).toEqual([
      ['email_verification', 'email_missing'],
      ['two_factor', 'two_factor_not_enabled'],
      ['business_onboarding', 'business_profile_missing'],
    ]);
  });
  it('is eligible when all three pass', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const result = liveModeEligibility({ email: 'a@b.c', emailVerifiedAt: at, totpEnabledAt: at, onboardedAt: at });
    expect(result).toMatchObject({ eligible: true, reasons: [], checks: { twoFactor: { passed: true, completedAt: at.toISOString() } } });
  });
});

describe('secret box', () => {
  it('round-trips and detects tampering', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed.toString('latin1')).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    sealed[sealed.length - 1] = sealed[sealed.length - 1]! ^ 1;
    expect(() => box.open(sealed)).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(box.seal('x'))).toThrow();
  });
});

describe('small parsers', () => {
  it('reads country codes', () => {
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('QQ')).toBe(false);
    expect(isCountryCode('de')).toBe(false);
  });
  it('tells API keys from JWTs by shape only', () => {
    expect(looksLikeApiKey('sk_live_abc')).toBe(true);
    expect(looksLikeApiKey('pk_test_abc')).toBe(true);
    expect(looksLikeApiKey('eyJhbGciOiJFUzI1NiJ9.e30.sig')).toBe(false);
  });
  it('chooses scopes from a preset or explicit list', () => {
    expect(scopesForNewKey({ kind: 'secret', preset: 'full' })).toHaveLength(18);
    expect(scopesForNewKey({ kind: 'publishable' })).toContain('payment_sessions_write');
    expect(() => scopesForNewKey({ kind: 'secret' })).toThrow(/scopes/);
    expect(() => scopesForNewKey({ kind: 'secret', preset: 'full', scopes: ['plans_read'] })).toThrow();
  });
  it('reads Service-Mode', () => {
    expect(parseMode(undefined)).toBe(false);
    expect(parseMode('LIVE')).toBe(true);
    expect(() => parseMode('prod')).toThrow();
  });
  it('decodes quoted-printable mail bodies', () => {
    const mail = parseMail(
      'Subject: =?UTF-8?Q?Caf=C3=A9?=\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nYour code is 123=\r\n456 =E2=9C=93\r\n',
    );
    expect(mail.subject).toBe('Café');
    expect(mail.text).toBe('Your code is 123456 ✓');
  });
});
