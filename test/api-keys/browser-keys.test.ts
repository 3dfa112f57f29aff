// Publishable keys are browser keys (issue 13): what a publishable key may read
// (only what it created, never a list), and CORS for them and only for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/api-keys/service.js';
import { SCOPES } from '../../src/api-keys/scopes.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let idp: DevIdentityProvider;
let merchant: SeededMerchant;
let counter = 0;

const SHOP = 'https://shop.example';

beforeAll(async () => {
  db = await createTestDatabase();
  idp = await startDevIdentityProvider();
  t = await createTestApp(db.sql, {
    chain: { test: settingsOf(sharedChain()) },
    env: { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: idp.audience, OIDC_JWKS_URL: idp.jwksUrl },
  });
  merchant = await seedMerchant(db.sql, 'Browser');
  await withPayout(merchant.merchantId);
});
afterAll(async () => {
  await t?.close();
  await idp?.stop();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function withPayout(merchantId: string): Promise<void> {
  await db.sql`update merchants set payout_address = ${DEV_ACCOUNTS.merchant.address} where id = ${merchantId}`;
}

async function publishableKey(
  merchantId: string,
  scopes: readonly string[] = ['payment_sessions_read', 'payment_sessions_write', 'plans_read'],
) {
  return (await issueKey(db.sql, { merchantId, livemode: false, kind: 'publishable', scopes, actor: 'test' })).secret;
}

/** A dashboard user with its merchant (payout address set), to configure allowed origins. */
async function dashboardMerchant() {
  const token = await idp.mintToken(`browser_${Date.now()}_${++counter}`, { email: `b${counter}@example.com`, name: 'Shop' });
  const sync = await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: auth(token) });
  expect(sync.statusCode).toBe(200);
  const merchantId: string = sync.json().id;
  await withPayout(merchantId);
  const setOrigins = (allowedOrigins: unknown) =>
    t.app.inject({ method: 'PUT', url: '/v1/merchants/me/allowed-origins', headers: auth(token), payload: { allowedOrigins } });
  return { token, merchantId, setOrigins };
}

const createSession = (key: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/payment-sessions',
    headers: { ...auth(key), ...headers },
    payload: { amount: '1000', successUrl: 'https://shop.example/ok', metadata: { order: '7' } },
  });

const sessionCount = async (merchantId: string) =>
  (await db.sql<{ n: number }[]>`select count(*)::int as n from payment_sessions where merchant_id = ${merchantId}`)[0]!.n;

describe('what a publishable key may read', () => {
  it('creates a session and reads it back, with everything it sent', async () => {
    const created = await createSession(merchant.publishableKey);
    expect(created.statusCode, created.body).toBe(200);
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/payment-sessions/${created.json().id}`,
      headers: auth(merchant.publishableKey),
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ id: created.json().id, metadata: { order: '7' }, successUrl: 'https://shop.example/ok' });
  });

  it("reads no session it did not create: not the secret key's, not another publishable key's", async () => {
    const bySecret = (await createSession(merchant.secretKey)).json();
    const otherKey = await publishableKey(merchant.merchantId);
    const byOther = (await createSession(otherKey)).json();
    for (const id of [bySecret.id, byOther.id]) {
      const read = await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${id}`, headers: auth(merchant.publishableKey) });
      expect(read.statusCode, read.body).toBe(404);
      expect(read.json().error.code).toBe('not_found');
      // The secret key still reads every session of the merchant.
      expect((await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${id}`, headers: auth(merchant.secretKey) })).statusCode).toBe(
        200,
      );
    }
  });

  it('reads a single plan', async () => {
    const plan = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(merchant.secretKey),
      payload: { name: 'Pro', amount: '5', interval: 'monthly' },
    });
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/subscription-plans/${plan.json().id}`,
      headers: auth(merchant.publishableKey),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().name).toBe('Pro');
  });

  it('lists nothing and reads nothing else, even when issued with every scope', async () => {
    const everything = await publishableKey(merchant.merchantId, SCOPES);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const open = new Set(['GET /v1/payment-sessions/{id}', 'GET /v1/subscription-plans/{id}']);
    let refused = 0;
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, operation] of Object.entries<any>(operations)) {
        if (method !== 'get' || operation.security.length === 0 || open.has(`GET ${path}`)) continue;
        const response = await t.app.inject({ method: 'GET', url: path.replace(/\{[^}]+\}/g, 'x'), headers: auth(everything) });
        expect(response.statusCode, `GET ${path}: ${response.body}`).toBe(403);
        expect(response.json().error.code).toBe('permission_denied');
        refused++;
      }
    }
    expect(refused).toBeGreaterThanOrEqual(15);
    const list = await t.app.inject({ method: 'GET', url: '/v1/payment-sessions', headers: auth(everything) });
    expect(list.statusCode).toBe(403);
    expect(list.json().error.message).toMatch(/Publishable/);
  });

  it('writes nothing but payment sessions', async () => {
    const everything = await publishableKey(merchant.merchantId, SCOPES);
    const plan = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(everything),
      payload: { name: 'x', amount: '1', interval: 'daily' },
    });
    expect(plan.statusCode).toBe(403);
  });

  it('says so in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/v1/payment-sessions'].post.description).toMatch(/Publishable keys allowed/);
    expect(doc.paths['/v1/payment-sessions/{id}'].get.description).toMatch(/Publishable keys allowed/);
    expect(doc.paths['/v1/payment-sessions'].get.description).toMatch(/not publishable keys/);
  });
});

describe('CORS preflights', () => {
  it('answers preflights of the routes publishable keys may call', async () => {
    const create = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/payment-sessions',
      headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(create.statusCode).toBe(204);
    expect(create.headers['access-control-allow-origin']).toBe(SHOP);
    expect(create.headers['access-control-allow-methods']).toBe('POST');
    expect(String(create.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    expect(String(create.headers['access-control-allow-headers'])).toMatch(/Content-Type/);
    expect(create.headers.vary).toMatch(/Origin/);
    const read = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/payment-sessions/ps_01HZZZZZZZZZZZZZZZZZZZZZZZ',
      headers: { origin: SHOP, 'access-control-request-method': 'GET' },
    });
    expect(read.statusCode).toBe(204);
    expect(read.headers['access-control-allow-methods']).toMatch(/GET/);
  });

  it('answers no preflight of a secret-key or dashboard route', async () => {
    for (const url of [
      '/v1/invoices',
      '/v1/subscription-plans',
      '/v1/merchants/me',
      '/v1/api-keys',
      '/v1/relay/payments',
      '/v1/merchants/me/allowed-origins',
    ]) {
      const response = await t.app.inject({ method: 'OPTIONS', url, headers: { origin: SHOP, 'access-control-request-method': 'POST' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });
});

describe('origins of publishable-key requests', () => {
  it('refuses an origin the merchant did not allow, before anything is created, with headers the page can read', async () => {
    const shop = await dashboardMerchant();
    const key = await publishableKey(shop.merchantId);
    const refused = await createSession(key, { origin: SHOP });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'permission_denied', param: 'Origin' });
    expect(refused.headers['access-control-allow-origin']).toBe(SHOP);
    expect(await sessionCount(shop.merchantId)).toBe(0);
    // Without Origin (a server or an app, not a page) the key works as before.
    expect((await createSession(key)).statusCode).toBe(200);
  });

  it('serves an allowed origin with CORS headers, and refuses the others', async () => {
    const shop = await dashboardMerchant();
    const set = await shop.setOrigins([`${SHOP}/`, 'http://localhost:3000']);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().allowedOrigins).toEqual([SHOP, 'http://localhost:3000']);
    const key = await publishableKey(shop.merchantId);

    const created = await createSession(key, { origin: SHOP });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.headers['access-control-allow-origin']).toBe(SHOP);
    expect(String(created.headers['access-control-expose-headers'])).toMatch(/Request-Id/);
    expect(created.headers.vary).toMatch(/Origin/);
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/payment-sessions/${created.json().id}`,
      headers: { ...auth(key), origin: 'http://localhost:3000' },
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe('http://localhost:3000');

    const elsewhere = await createSession(key, { origin: 'https://evil.example' });
    expect(elsewhere.statusCode).toBe(403);
    expect(await sessionCount(shop.merchantId)).toBe(1);
  });

  it('allows every origin with "*"', async () => {
    const shop = await dashboardMerchant();
    const set = await shop.setOrigins(['*', SHOP]);
    expect(set.json().allowedOrigins).toEqual(['*']);
    const key = await publishableKey(shop.merchantId);
    const created = await createSession(key, { origin: 'https://anywhere.example' });
    expect(created.statusCode).toBe(200);
    expect(created.headers['access-control-allow-origin']).toBe('https://anywhere.example');
  });

  it('never sets CORS headers for secret keys or dashboard sessions', async () => {
    const shop = await dashboardMerchant();
    await shop.setOrigins(['*']);
    const secret = (await issueKey(db.sql, { merchantId: shop.merchantId, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'test' }))
      .secret;
    const bySecret = await createSession(secret, { origin: SHOP });
    expect(bySecret.statusCode).toBe(200);
    expect(bySecret.headers['access-control-allow-origin']).toBeUndefined();
    const byDashboard = await t.app.inject({
      method: 'GET',
      url: `/v1/payment-sessions/${bySecret.json().id}`,
      headers: { ...auth(shop.token), origin: SHOP },
    });
    expect(byDashboard.statusCode).toBe(200);
    expect(byDashboard.headers['access-control-allow-origin']).toBeUndefined();
    const me = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: { ...auth(secret), origin: SHOP } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('setting allowed origins', () => {
  it.each([
    ['a path', ['https://shop.example/checkout']],
    ['plain http', ['http://shop.example']],
    ['not a URL', ['shop.example']],
    ['a wildcard host', ['https://*.shop.example']],
    ['credentials', ['https://user:pw@shop.example']],
    ['too many', Array.from({ length: 21 }, (_v, i) => `https://s${i}.example`)],
  ])('refuses %s with invalid_request', async (_name, origins) => {
    const shop = await dashboardMerchant();
    const response = await shop.setOrigins(origins);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.code).toBe('invalid_request');
    expect(response.json().error.param).toMatch(/^allowedOrigins/);
  });

  it('normalises origins as browsers send them', async () => {
    const shop = await dashboardMerchant();
    const response = await shop.setOrigins(['HTTPS://Shop.Example:443', 'https://shop.example', 'https://pay.shop.example:8443']);
    expect(response.statusCode).toBe(200);
    expect(response.json().allowedOrigins).toEqual(['https://shop.example', 'https://pay.shop.example:8443']);
    const me = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: auth(shop.token) });
    expect(me.json().allowedOrigins).toEqual(['https://shop.example', 'https://pay.shop.example:8443']);
  });

  it('is for the dashboard only', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/allowed-origins',
      headers: auth(merchant.secretKey),
      payload: { allowedOrigins: ['*'] },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('permission_denied');
  });
});
