import { describe, expect, it } from 'vitest';
import { SCOPES, SCOPE_PRESETS, publishableKeyMayCall } from '../../src/api-keys/scopes.js';
import { generateKey, hashKey, parseKey, sameHash } from '../../src/api-keys/secrets.js';
import { bearerToken } from '../../src/plugins/auth.js';
import { AuthenticationError } from '../../src/errors.js';

describe('scopes', () => {
  it('are eighteen, underscore-separated and alphabetical', () => {
    expect(SCOPES).toHaveLength(18);
    expect([...SCOPES].sort()).toEqual([...SCOPES]);
    for (const scope of SCOPES) expect(scope).toMatch(/^[a-z]+(_[a-z]+)+$/);
    expect(SCOPES).toEqual(expect.arrayContaining(['relay_read', 'relay_write', 'subscriptions_read']));
  });

  it('presets hold only known scopes', () => {
    for (const preset of Object.values(SCOPE_PRESETS)) for (const scope of preset) expect(SCOPES).toContain(scope);
    expect(SCOPE_PRESETS['read-only'].every((s) => s.endsWith('_read'))).toBe(true);
    expect(SCOPE_PRESETS.full).toEqual([...SCOPES]);
  });

  it('publishable keys may read and create payment sessions only', () => {
    expect(publishableKeyMayCall('GET', '/v1/invoices')).toBe(true);
    expect(publishableKeyMayCall('POST', '/v1/payment-sessions')).toBe(true);
    expect(publishableKeyMayCall('POST', '/v1/invoices')).toBe(false);
    expect(publishableKeyMayCall('PATCH', '/v1/agents/config')).toBe(false);
  });
});

describe('key strings', () => {
  it('carry kind and mode in the prefix', () => {
    expect(parseKey(generateKey('secret', false))).toEqual({ kind: 'secret', livemode: false });
    expect(parseKey(generateKey('secret', true))).toEqual({ kind: 'secret', livemode: true });
    expect(parseKey(generateKey('publishable', true))).toEqual({ kind: 'publishable', livemode: true });
    expect(parseKey('sk_test_short')).toBeNull();
    expect(parseKey('xx_test_' + 'a'.repeat(48))).toBeNull();
  });

  it('are random and hash to a fixed-size digest compared in constant time', () => {
    const a = generateKey('secret', false);
    const b = generateKey('secret', false);
    expect(a).not.toBe(b);
    expect(hashKey(a)).toHaveLength(32);
    expect(sameHash(hashKey(a), hashKey(a))).toBe(true);
    expect(sameHash(hashKey(a), hashKey(b))).toBe(false);
    expect(sameHash(hashKey(a), Buffer.alloc(3))).toBe(false);
  });
});

describe('Authorization header', () => {
  it('accepts "Bearer <token>" in any case of the scheme', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
  });

  it.each([undefined, '', '   ', 'Bearer', 'Bearer ', 'Basic abc', 'Token abc', 'Bearer a b'])('refuses %j', (header) => {
    expect(() => bearerToken(header)).toThrow(AuthenticationError);
  });
});
