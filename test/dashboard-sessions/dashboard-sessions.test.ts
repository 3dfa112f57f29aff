import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { CURRENT_API_VERSION } from '../../src/http/versions.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let idp: DevIdentityProvider;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  idp = await startDevIdentityProvider();
  t = await createTestApp(db.sql, {
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: idp.audience,
      OIDC_JWKS_URL: idp.jwksUrl,
      OIDC_JWKS_COOLDOWN_MS: '0',
      RATE_LIMIT_PER_KEY_PER_MINUTE: '10000',
    },
  });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await idp?.stop();
  await db?.drop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let userCounter = 0;
const newUser = () => `user_${Date.now()}_${++userCounter}`;

async function syncedToken(claims: { email?: string; name?: string } = {}) {
  const subject = newUser();
  const token = await idp.mintToken(subject, { email: claims.email ?? `${subject}@example.com`, name: claims.name });
  const sync = await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: bearer(token) });
  expect(sync.json()).toMatchObject({ object: 'merchant' });
  return { subject, token, merchant: sync.json() };
}

describe('first login', () => {
  it('answers merchant_not_synced until POST /v1/auth/sync, then the original request succeeds', async () => {
    const subject = newUser();
    const token = await idp.mintToken(subject, { email: 'first@example.com', name: 'First Shop' });

    const before = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: bearer(token) });
    expect(before.statusCode).toBe(401);
    expect(before.json().error.code).toBe('merchant_not_synced');
    const beforePlans = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: bearer(token) });
    expect(beforePlans.json().error.code).toBe('merchant_not_synced');

    const sync = await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: bearer(token) });
    expect(sync.statusCode).toBe(200);
    expect(sync.json()).toMatchObject({
      object: 'merchant',
      name: 'First Shop',
      email: 'first@example.com',
      emailVerified: false,
      liveModeEligible: false,
    });

    const again = await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: bearer(token) });
    expect(again.json().id).toBe(sync.json().id);
    const counted = await db.sql<{ n: number }[]>`select count(*)::int as n from merchants where idp_subject = ${subject}`;
    expect(counted[0]!.n).toBe(1);

    const retry = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: bearer(token) });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ id: sync.json().id, twoFactorEnabled: false, business: null, rateLimitPerMinute: 10_000 });
  });

  it('syncs concurrently into one merchant', async () => {
    const token = await idp.mintToken(newUser());
    const results = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: bearer(token) })));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
  });
});

describe('dashboard token verification', () => {
  const expectRefused = async (token: string) => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: bearer(token) });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('authentication_error');
    const sync = await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: bearer(token) });
    expect(sync.statusCode).toBe(401);
    expect(sync.json().error.code).toBe('authentication_error');
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('refuses an expired token', async () => {
    const { subject } = await syncedToken();
    await expectRefused(await idp.mintToken(subject, { issuedAt: now() - 7200, expiresInSeconds: 3600 }));
  });

  it('refuses a token that is not valid yet', async () => {
    const { subject } = await syncedToken();
    await expectRefused(await idp.mintToken(subject, { notBefore: now() + 600 }));
  });

  it('refuses a token from another issuer', async () => {
    const { subject } = await syncedToken();
    await expectRefused(await idp.mintToken(subject, { issuer: 'https://evil.example.com' }));
  });

  it('refuses a token for another audience', async () => {
    const { subject } = await syncedToken();
    await expectRefused(await idp.mintToken(subject, { audience: 'some-other-api' }));
  });

  it('refuses a token signed with a key the provider does not publish', async () => {
    const { subject } = await syncedToken();
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'not-published' })
      .setSubject(subject)
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    await expectRefused(forged);
  });

  it('refuses alg:none', async () => {
    const { subject } = await syncedToken();
    const unsigned = new UnsecuredJWT({})
      .setSubject(subject)
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    await expectRefused(unsigned);
  });

  it('refuses garbage and a malformed header', async () => {
    await expectRefused('not-a-jwt');
    const response = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: { authorization: 'Token abc' } });
    expect(response.json().error.code).toBe('authentication_error');
  });

  it('follows a key rotation of the identity provider', async () => {
    const { subject } = await syncedToken();
    await idp.rotateKey();
    const response = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: bearer(await idp.mintToken(subject)) });
    expect(response.statusCode).toBe(200);
  });
});

describe('pinning the API version', () => {
  it('pins a served version from the dashboard; an unknown version and an API key are refused', async () => {
    const { token } = await syncedToken();
    const pinned = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/api-version',
      headers: bearer(token),
      payload: { apiVersion: CURRENT_API_VERSION },
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json().apiVersion).toBe(CURRENT_API_VERSION);
    const unknown = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/api-version',
      headers: bearer(token),
      payload: { apiVersion: '2020-01-01' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'invalid_request', param: 'apiVersion' });
    const withKey = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/api-version',
      headers: bearer(merchant.secretKey),
      payload: { apiVersion: CURRENT_API_VERSION },
    });
    expect(withKey.statusCode).toBe(403);
    expect(withKey.json().error.code).toBe('permission_denied');
    // A request without the header is answered in the pinned version.
    const me = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: bearer(token) });
    expect(me.headers['service-version']).toBe(CURRENT_API_VERSION);
  });
});

describe('keys and sessions never mix', () => {
  it('refuses a dashboard session on the relay, which needs a secret API key', async () => {
    const { token } = await syncedToken();
    const read = await t.app.inject({ method: 'GET', url: '/v1/relay/submissions/any-key', headers: bearer(token) });
    const write = await t.app.inject({
      method: 'POST',
      url: '/v1/relay/payments',
      headers: { ...bearer(token), 'idempotency-key': 'k1' },
      payload: {},
    });
    for (const response of [read, write]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission_denied');
      expect(response.json().error.message).toMatch(/secret API key/);
    }
  });

  it('refuses an API key on dashboard-only routes', async () => {
    // GET /v1/merchants/me and its live-mode-eligibility also answer secret keys (test/http/api-shape.test.ts).
    for (const url of ['/v1/api-keys', '/v1/api-keys/audit-log']) {
      const response = await t.app.inject({ method: 'GET', url, headers: bearer(merchant.secretKey) });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission_denied');
    }
    const sync = await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: bearer(merchant.secretKey) });
    expect(sync.statusCode).toBe(403);
  });

  it('never verifies an sk_/pk_-shaped token as a JWT', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: bearer('sk_test_eyJhbGciOiJub25lIn0') });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toMatch(/API key/);
  });

  it('lets a dashboard session use resource routes in test mode, and live only once eligible', async () => {
    const { token, merchant: m } = await syncedToken();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: bearer(token),
      payload: { name: 'Dash plan', amount: '5000000', interval: 'monthly' },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().livemode).toBe(false);
    const rows = await db.sql`select merchant_id from subscription_plans where id = ${created.json().id}`;
    expect(rows[0]!.merchant_id).toBe(m.id);

    const live = await t.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans',
      headers: { ...bearer(token), 'service-mode': 'live' },
    });
    expect(live.statusCode).toBe(403);
    expect(live.json().error.code).toBe('permission_denied');
    const bad = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: { ...bearer(token), 'service-mode': 'prod' } });
    expect(bad.statusCode).toBe(400);
  });
});
