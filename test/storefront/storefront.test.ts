// The storefront and its products through the real app and a real Postgres:
// merchant routes (create, update, slug rules, products, archive, scopes,
// merchant and mode isolation), the public store page (HTML and JSON, escaping,
// 404s) and its buy route (sessions through the payment-session service,
// plan products, the anonymous rate limit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter, type RateLimiter } from '../../src/rate-limits/service.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { STORE_PURCHASES_PER_IP_PER_MINUTE } from '../../src/storefront/service.js';
import { formatAmount } from '../../src/storefront/page.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';

let db: TestDatabase;
let t: TestApp;
let limiter: RateLimiter;
let merchant: SeededMerchant;
let other: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  // A real limiter on the test database, its clock pinned inside one window so the purchase limit
  // is counted exactly; the service-wide limits stay out of the way (createTestApp's environment).
  const pinned = Date.UTC(2030, 0, 1, 12, 0, 30);
  limiter = createRateLimiter(db.sql, { flushIntervalMs: 250, now: () => pinned });
  t = await createTestApp(db.sql, { rateLimiter: limiter, chain: { test: settingsOf(sharedChain()) } });
  merchant = await seedMerchant(db.sql, 'Corner shop');
  other = await seedMerchant(db.sql, 'Other shop');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
});
afterAll(async () => {
  await t?.close();
  await limiter?.close();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
type Json = Record<string, unknown>;

async function post(url: string, key: string, payload: Json = {}) {
  return t.app.inject({ method: 'POST', url, headers: auth(key), payload });
}
async function get(url: string, key: string) {
  return t.app.inject({ method: 'GET', url, headers: auth(key) });
}
async function createProduct(key: string, payload: Json): Promise<Json & { id: string }> {
  const response = await post('/v1/storefront/products', key, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
function expectInvalid(response: { statusCode: number; json: () => any }, param: string) {
  expect(response.statusCode).toBe(400);
  const { error } = response.json();
  expect(error.code).toBe('invalid_request');
  expect(error.details.issues.length).toBeGreaterThan(0);
  // '' stands for an unknown key (the whole body is at fault).
  if (param === '') return;
  expect(error.param).toBe(param);
  expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
}
const count = async (table: 'storefronts' | 'products' | 'payment_sessions' | 'events') =>
  (await db.sql<{ n: number }[]>`select count(*)::int as n from ${db.sql(table)}`)[0]!.n;

describe('storefront: POST/GET /v1/storefront', () => {
  it('creates the storefront, reads it back, updates only the keys sent, and records storefront.updated', async () => {
    expect((await get('/v1/storefront', merchant.secretKey)).statusCode).toBe(404);
    const created = await post('/v1/storefront', merchant.secretKey, {
      slug: 'corner-shop',
      name: 'Corner Shop',
      description: 'Small-batch coffee, roasted weekly.',
      logoUrl: 'https://cdn.example.com/logo.png',
      accentColor: '#0A7A3A',
      supportEmail: 'help@corner.example',
      successUrl: 'https://corner.example/thanks',
      cancelUrl: 'https://corner.example/',
    });
    expect(created.statusCode, created.body).toBe(200);
    const sf = created.json();
    expect(sf).toMatchObject({
      object: 'storefront',
      slug: 'corner-shop',
      name: 'Corner Shop',
      accentColor: '#0a7a3a',
      supportEmail: 'help@corner.example',
      livemode: false,
    });
    expect(sf.id).toMatch(/^sf_/);
    expect(sf.url).toMatch(/\/store\/corner-shop$/);
    expect((await get('/v1/storefront', merchant.secretKey)).json()).toEqual(sf);

    const updated = await post('/v1/storefront', merchant.secretKey, { name: 'Corner Coffee', logoUrl: null });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      id: sf.id,
      slug: 'corner-shop',
      name: 'Corner Coffee',
      logoUrl: null,
      accentColor: '#0a7a3a',
      supportEmail: 'help@corner.example',
    });

    const events =
      await db.sql`select type, data from events where type = 'storefront.updated' and merchant_id = ${merchant.merchantId} order by id`;
    expect(events.map((e) => (e.data as { object: { name: string } }).object.name)).toEqual(['Corner Shop', 'Corner Coffee']);
    // A call that changes nothing records nothing.
    expect((await post('/v1/storefront', merchant.secretKey, { name: 'Corner Coffee' })).statusCode).toBe(200);
    expect(await db.sql`select id from events where type = 'storefront.updated' and merchant_id = ${merchant.merchantId}`).toHaveLength(2);
  });

  it('requires slug and name to create, and refuses bad slugs, URLs, colours and emails with details.issues, creating nothing', async () => {
    const fresh = await seedMerchant(db.sql, 'Fresh');
    const before = await count('storefronts');
    expectInvalid(await post('/v1/storefront', fresh.secretKey, { name: 'No slug' }), 'slug');
    expectInvalid(await post('/v1/storefront', fresh.secretKey, { slug: 'no-name' }), 'name');
    for (const slug of [
      'Upper',
      'ab',
      'a'.repeat(41),
      '-lead',
      'trail-',
      'dou--ble',
      'sp ace',
      'ünï',
      'admin',
      'checkout',
      'store',
      'api',
    ]) {
      expectInvalid(await post('/v1/storefront', fresh.secretKey, { slug, name: 'X' }), 'slug');
    }
    for (const [field, value] of [
      ['logoUrl', 'http://cdn.example.com/logo.png'],
      ['logoUrl', 'javascript:alert(1)'],
      ['logoUrl', 'not a url'],
      ['successUrl', 'ftp://corner.example/'],
      ['cancelUrl', 'javascript:alert(1)'],
      ['accentColor', 'red'],
      ['accentColor', '#12345'],
      ['accentColor', '#123456;}body{display:none'],
      ['supportEmail', 'not-an-email'],
    ] as const) {
      expectInvalid(await post('/v1/storefront', fresh.secretKey, { slug: 'fresh-shop', name: 'Fresh', [field]: value }), field);
    }
    expectInvalid(await post('/v1/storefront', fresh.secretKey, { slug: 'fresh-shop', name: 'Fresh', unknown: 1 }), '');
    expect(await count('storefronts')).toBe(before);
  });

  it('refuses a slug taken by another merchant or by the same merchant in the other mode, with a clear error', async () => {
    const taken = await post('/v1/storefront', other.secretKey, { slug: 'corner-shop', name: 'Impostor' });
    expectInvalid(taken, 'slug');
    expect(taken.json().error.message).toMatch(/already taken/);
    expectInvalid(await post('/v1/storefront', merchant.liveSecretKey, { slug: 'corner-shop', name: 'Live corner' }), 'slug');
    // Renaming into a taken slug is refused the same way and changes nothing.
    expect((await post('/v1/storefront', other.secretKey, { slug: 'other-shop', name: 'Other' })).statusCode).toBe(200);
    expectInvalid(await post('/v1/storefront', other.secretKey, { slug: 'corner-shop' }), 'slug');
    expect((await get('/v1/storefront', other.secretKey)).json().slug).toBe('other-shop');
  });

  it('keeps test and live storefronts separate (one per merchant and mode)', async () => {
    const live = await post('/v1/storefront', merchant.liveSecretKey, { slug: 'corner-live', name: 'Corner live' });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json()).toMatchObject({ livemode: true, slug: 'corner-live' });
    expect((await get('/v1/storefront', merchant.secretKey)).json()).toMatchObject({ livemode: false, slug: 'corner-shop' });
    expect((await get('/v1/storefront', merchant.liveSecretKey)).json()).toMatchObject({ livemode: true, slug: 'corner-live' });
    const rows = await db.sql`select livemode from storefronts where merchant_id = ${merchant.merchantId} order by livemode`;
    expect(rows.map((r) => r.livemode)).toEqual([false, true]);
  });

  it('needs storefront_write to write and plans_read to read; publishable keys are refused', async () => {
    const readOnly = await merchant.keyWithScopes(['plans_read']);
    const writeOnly = await merchant.keyWithScopes(['storefront_write']);
    const denied = await post('/v1/storefront', readOnly, { name: 'Nope' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('permission_denied');
    expect((await get('/v1/storefront', readOnly)).statusCode).toBe(200);
    expect((await get('/v1/storefront', writeOnly)).statusCode).toBe(403);
    expect((await post('/v1/storefront/products', readOnly, { name: 'x', amount: '1' })).statusCode).toBe(403);
    for (const response of [
      await post('/v1/storefront', merchant.publishableKey, { name: 'Nope' }),
      await post('/v1/storefront/products', merchant.publishableKey, { name: 'x', amount: '1' }),
      await get('/v1/storefront', merchant.publishableKey),
      await get('/v1/storefront/products', merchant.publishableKey),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission_denied');
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/storefront' })).statusCode).toBe(401);
  });
});

describe('storefront products', () => {
  it('adds, reads, lists, updates and archives a product, with events', async () => {
    const product = await createProduct(merchant.secretKey, {
      name: 'House blend 250 g',
      description: 'Chocolate, hazelnut.',
      imageUrl: 'https://cdn.example.com/house.jpg',
      amount: '12500000',
    });
    expect(product).toMatchObject({
      object: 'product',
      name: 'House blend 250 g',
      amount: '12500000',
      currency: 'USDC',
      planId: null,
      active: true,
      archived: false,
      archivedAt: null,
      livemode: false,
    });
    expect(product.id).toMatch(/^prod_/);
    expect((await get(`/v1/storefront/products/${product.id}`, merchant.secretKey)).json()).toEqual(product);

    const updated = await post(`/v1/storefront/products/${product.id}`, merchant.secretKey, { amount: '13000000', description: null });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      id: product.id,
      name: 'House blend 250 g',
      amount: '13000000',
      description: null,
      imageUrl: 'https://cdn.example.com/house.jpg',
    });

    const archived = await post(`/v1/storefront/products/${product.id}/archive`, merchant.secretKey);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json()).toMatchObject({ id: product.id, archived: true, active: false });
    expect(archived.json().archivedAt).toBeTruthy();

    const again = await post(`/v1/storefront/products/${product.id}/archive`, merchant.secretKey);
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toMatchObject({ code: 'session_invalid_state', param: 'id' });
    const change = await post(`/v1/storefront/products/${product.id}`, merchant.secretKey, { active: true });
    expect(change.statusCode).toBe(403);
    expect(change.json().error.code).toBe('session_invalid_state');
    // Still readable, and listed with ?archived=true only.
    expect((await get(`/v1/storefront/products/${product.id}`, merchant.secretKey)).json()).toMatchObject({ archived: true });
    const archivedList = (await get('/v1/storefront/products?archived=true', merchant.secretKey)).json();
    expect(archivedList.data.map((p: Json) => p.id)).toContain(product.id);
    const liveList = (await get('/v1/storefront/products?archived=false', merchant.secretKey)).json();
    expect(liveList.data.map((p: Json) => p.id)).not.toContain(product.id);

    const events = await db.sql`select type from events where data->'object'->>'id' = ${product.id} order by id`;
    expect(events.map((e) => e.type)).toEqual(['product.created', 'product.updated', 'product.archived']);
  });

  it('pages the list with cursors', async () => {
    const fresh = await seedMerchant(db.sql, 'Pager');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createProduct(fresh.secretKey, { name: `P${i}`, amount: '1000000' })).id);
    const first = (await get('/v1/storefront/products?limit=2', fresh.secretKey)).json();
    expect(first.data.map((p: Json) => p.id)).toEqual([ids[2], ids[1]]);
    expect(first.hasMore).toBe(true);
    const second = (await get(`/v1/storefront/products?limit=2&cursor=${first.nextCursor}`, fresh.secretKey)).json();
    expect(second).toMatchObject({ hasMore: false, nextCursor: '' });
    expect(second.data.map((p: Json) => p.id)).toEqual([ids[0]]);
  });

  it.each([
    [{ name: 'x', amount: '0' }, 'amount'],
    [{ name: 'x', amount: '-5' }, 'amount'],
    [{ name: 'x', amount: '1.5' }, 'amount'],
    [{ name: 'x', amount: 100 }, 'amount'],
    [{ name: 'x', amount: '1e6' }, 'amount'],
    [{ name: 'x' }, 'amount'],
    [{ amount: '1' }, 'name'],
    [{ name: '   ', amount: '1' }, 'name'],
    [{ name: 'x', amount: '1', currency: 'EUR' }, 'currency'],
    [{ name: 'x', amount: '1', imageUrl: 'http://cdn.example.com/a.png' }, 'imageUrl'],
    [{ name: 'x', amount: '1', imageUrl: 'data:image/png;base64,AAAA' }, 'imageUrl'],
    [{ name: 'x', amount: '1', planId: 'plan_nope' }, 'planId'],
    [{ name: 'x', amount: '1', active: 'yes' }, 'active'],
  ])('refuses %j with invalid_request on %s and creates nothing', async (payload, param) => {
    const before = await count('products');
    expectInvalid(await post('/v1/storefront/products', merchant.secretKey, payload), param);
    expect(await count('products')).toBe(before);
  });

  it('refuses bad updates with details.issues and changes nothing', async () => {
    const product = await createProduct(merchant.secretKey, { name: 'Mug', amount: '9000000' });
    expectInvalid(await post(`/v1/storefront/products/${product.id}`, merchant.secretKey, { amount: '0' }), 'amount');
    expectInvalid(
      await post(`/v1/storefront/products/${product.id}`, merchant.secretKey, { imageUrl: 'http://x.example/a.png' }),
      'imageUrl',
    );
    expectInvalid(
      await post(`/v1/storefront/products/${product.id}`, merchant.secretKey, { planId: 'plan_00000000000000000000000000' }),
      '',
    );
    expect((await get(`/v1/storefront/products/${product.id}`, merchant.secretKey)).json()).toEqual(product);
  });

  it('a plan product takes its price from the plan; a different amount is refused', async () => {
    const plan = (
      await post('/v1/subscription-plans', merchant.secretKey, { name: 'Coffee club', amount: '20000000', interval: 'monthly' })
    ).json();
    const product = await createProduct(merchant.secretKey, { name: 'Coffee club', planId: plan.id });
    expect(product).toMatchObject({ planId: plan.id, amount: '20000000' });
    expectInvalid(await post('/v1/storefront/products', merchant.secretKey, { name: 'x', planId: plan.id, amount: '1' }), 'amount');
    expectInvalid(await post(`/v1/storefront/products/${product.id}`, merchant.secretKey, { amount: '1' }), 'amount');
    const foreignPlan = (
      await post('/v1/subscription-plans', other.secretKey, { name: 'Theirs', amount: '1000000', interval: 'weekly' })
    ).json();
    // Another merchant's plan, or a well-formed id of no plan: not_found on planId, and nothing created.
    const before = await count('products');
    for (const planId of [foreignPlan.id, 'plan_00000000000000000000000000']) {
      const response = await post('/v1/storefront/products', merchant.secretKey, { name: 'x', planId });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({ code: 'not_found', param: 'planId' });
    }
    expect(await count('products')).toBe(before);
  });

  it("another merchant's products and the other mode's products are invisible", async () => {
    const mine = await createProduct(merchant.secretKey, { name: 'Mine', amount: '1000000' });
    const theirs = await createProduct(other.secretKey, { name: 'Theirs', amount: '1000000' });
    const live = await createProduct(merchant.liveSecretKey, { name: 'Live only', amount: '1000000' });
    expect(live.livemode).toBe(true);
    for (const [key, id] of [
      [merchant.secretKey, theirs.id],
      [other.secretKey, mine.id],
      [merchant.secretKey, live.id],
      [merchant.liveSecretKey, mine.id],
    ] as const) {
      const read = await get(`/v1/storefront/products/${id}`, key);
      expect(read.statusCode).toBe(404);
      expect(read.json().error).toMatchObject({ code: 'not_found', param: 'id' });
      expect((await post(`/v1/storefront/products/${id}`, key, { name: 'stolen' })).statusCode).toBe(404);
      expect((await post(`/v1/storefront/products/${id}/archive`, key)).statusCode).toBe(404);
    }
    const listed = (await get('/v1/storefront/products?limit=100', merchant.secretKey)).json().data.map((p: Json) => p.id);
    expect(listed).toContain(mine.id);
    expect(listed).not.toContain(theirs.id);
    expect(listed).not.toContain(live.id);
    expect((await get('/v1/storefront/products?limit=100', merchant.liveSecretKey)).json().data.map((p: Json) => p.id)).toEqual([live.id]);
    expect((await get('/v1/storefront/products/not-an-id', merchant.secretKey)).statusCode).toBe(404);
  });
});

describe('the public store page GET /store/{slug}', () => {
  let shop: SeededMerchant;
  let products: Record<string, Json & { id: string }>;

  beforeAll(async () => {
    shop = await seedMerchant(db.sql, 'Page shop');
    await setPayoutAddress(db.sql, shop.merchantId, DEV_ACCOUNTS.merchant.address);
    expect(
      (
        await post('/v1/storefront', shop.secretKey, {
          slug: 'page-shop',
          name: 'Page <Shop> & "Co"',
          description: '<img src=x onerror=alert(1)>',
          accentColor: '#ffcc00',
          supportEmail: 'care@page.example',
        })
      ).statusCode,
    ).toBe(200);
    products = {
      script: await createProduct(shop.secretKey, {
        name: '<script>alert("x")</script>',
        description: '</p><b>bold</b>',
        amount: '2500000',
      }),
      big: await createProduct(shop.secretKey, {
        name: 'Big one',
        amount: '1234567000000',
        imageUrl: 'https://cdn.example.com/big.png?a=1&b="2"',
      }),
      hidden: await createProduct(shop.secretKey, { name: 'Hidden draft', amount: '1000000', active: false }),
      archived: await createProduct(shop.secretKey, { name: 'Old archived', amount: '1000000' }),
    };
    expect((await post(`/v1/storefront/products/${products.archived!.id}/archive`, shop.secretKey)).statusCode).toBe(200);
  });

  it('serves an HTML page with the active products, formatted prices and buy buttons, everything escaped and no key', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/store/page-shop',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    const html = response.body;
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;/p&gt;&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Page &lt;Shop&gt; &amp; &quot;Co&quot;');
    expect(html).toContain('src="https://cdn.example.com/big.png?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain('2.50<span class="currency">USDC');
    expect(html).toContain('1,234,567.00<span class="currency">USDC');
    expect(html).toContain(`data-purchase-path="/store/page-shop/products/${products.script!.id}/purchase"`);
    expect(html).toContain('mailto:care@page.example');
    expect(html).toContain('--accent: #ffcc00');
    expect(html).toContain('Test mode');
    expect(html).not.toContain('Hidden draft');
    expect(html).not.toContain('Old archived');
    // The only script is the same-origin store script; no inline script, no key.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script src="/store/assets/store.js"></script>');
    expect(html).not.toMatch(/sk_(test|live)_|pk_(test|live)_/);
    const script = await t.app.inject({ method: 'GET', url: '/store/assets/store.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('answers the same data as JSON for Accept: application/json', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/store/page-shop', headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json();
    expect(body).toMatchObject({
      object: 'store',
      slug: 'page-shop',
      name: 'Page <Shop> & "Co"',
      accentColor: '#ffcc00',
      livemode: false,
      supportEmail: 'care@page.example',
    });
    expect(body.products.map((p: Json) => p.id)).toEqual([products.script!.id, products.big!.id]);
    expect(body.products[0]).toEqual({
      id: products.script!.id,
      name: '<script>alert("x")</script>',
      description: '</p><b>bold</b>',
      imageUrl: null,
      amount: '2500000',
      currency: 'USDC',
      displayPrice: '2.50 USDC',
      kind: 'one_time',
      interval: null,
      intervalCount: null,
      purchasePath: `/store/page-shop/products/${products.script!.id}/purchase`,
    });
    expect(JSON.stringify(body)).not.toMatch(/successUrl|merchantId|mer_/);
  });

  it('answers 404 for an unknown slug: an HTML page for browsers, the error envelope for JSON', async () => {
    for (const slug of ['no-such-shop', 'UPPER', 'x', '%3Cscript%3E']) {
      const html = await t.app.inject({ method: 'GET', url: `/store/${slug}`, headers: { accept: 'text/html' } });
      expect(html.statusCode).toBe(404);
      expect(html.headers['content-type']).toMatch(/^text\/html/);
      expect(html.body).toContain('Store not found');
      expect(html.body).not.toContain('<script');
      const json = await t.app.inject({ method: 'GET', url: `/store/${slug}`, headers: { accept: 'application/json' } });
      expect(json.statusCode).toBe(404);
      expect(json.json().error).toMatchObject({ code: 'not_found', param: 'slug' });
      expect(json.json().error.requestId).toMatch(/^req_/);
    }
  });

  it('follows a slug change: the new slug serves the page, the old one is 404', async () => {
    const mover = await seedMerchant(db.sql, 'Mover');
    expect((await post('/v1/storefront', mover.secretKey, { slug: 'mover-old', name: 'Mover' })).statusCode).toBe(200);
    expect((await post('/v1/storefront', mover.secretKey, { slug: 'mover-new' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/store/mover-old' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/store/mover-new' })).statusCode).toBe(200);
    // The freed slug can be taken by someone else.
    expect((await post('/v1/storefront', other.liveSecretKey, { slug: 'mover-old', name: 'Taker' })).statusCode).toBe(200);
  });

  it('shows the live storefront without the test-mode badge and keeps modes apart', async () => {
    const liveProduct = await createProduct(merchant.liveSecretKey, { name: 'Live roast', amount: '5000000' });
    const live = (await t.app.inject({ method: 'GET', url: '/store/corner-live', headers: { accept: 'application/json' } })).json();
    expect(live.livemode).toBe(true);
    expect(live.products.map((p: Json) => p.id)).toContain(liveProduct.id);
    const test = (await t.app.inject({ method: 'GET', url: '/store/corner-shop', headers: { accept: 'application/json' } })).json();
    expect(test.products.map((p: Json) => p.id)).not.toContain(liveProduct.id);
    const html = (await t.app.inject({ method: 'GET', url: '/store/corner-live' })).body;
    expect(html).not.toContain('Test mode');
  });

  it('formats base units exactly (integer strings, never floats)', () => {
    expect(formatAmount('1')).toBe('0.000001');
    expect(formatAmount('10')).toBe('0.00001');
    expect(formatAmount('1000000')).toBe('1.00');
    expect(formatAmount('2500000')).toBe('2.50');
    expect(formatAmount('1234567')).toBe('1.234567');
    expect(formatAmount('123456789012345678901234567890')).toBe('123,456,789,012,345,678,901,234.56789');
  });
});

describe('buying from the store: POST /store/{slug}/products/{id}/purchase', () => {
  it('creates a payment session for the product through the payment-session service and names the product', async () => {
    const product = await createProduct(merchant.secretKey, { name: 'Espresso beans', amount: '7500000' });
    const response = await t.app.inject({ method: 'POST', url: `/store/corner-shop/products/${product.id}/purchase`, payload: {} });
    expect(response.statusCode, response.body).toBe(200);
    const purchase = response.json();
    expect(purchase).toMatchObject({ object: 'store_purchase', productId: product.id, kind: 'one_time' });
    expect(purchase.paymentSessionId).toMatch(/^ps_/);
    expect(purchase.checkoutPath).toBe(`/checkout/${purchase.paymentSessionId}`);
    expect(purchase.checkoutUrl).toMatch(new RegExp(`/checkout/${purchase.paymentSessionId}$`));

    const session = (await get(`/v1/payment-sessions/${purchase.paymentSessionId}`, merchant.secretKey)).json();
    expect(session).toMatchObject({
      object: 'payment_session',
      status: 'open',
      amount: '7500000',
      currency: 'USDC',
      productId: product.id,
      productName: 'Espresso beans',
      successUrl: 'https://corner.example/thanks',
      cancelUrl: 'https://corner.example/',
      livemode: false,
    });
    // The service queued its workflow start in the same transaction (the outbox of workflow starts).
    const starts = await db.sql`select workflow_id from workflow_starts where workflow_id = ${purchase.paymentSessionId}`;
    expect(starts).toHaveLength(1);
    // Sessions created through the API have no product.
    const plain = (await post('/v1/payment-sessions', merchant.secretKey, { amount: '1000000' })).json();
    expect(plain).toMatchObject({ productId: null, productName: null });
  });

  it('the success URL carries the payment session id: the default back to the store page, and a merchant URL with {PAYMENT_SESSION_ID}', async () => {
    const shop = await seedMerchant(db.sql, 'Plain shop');
    await setPayoutAddress(db.sql, shop.merchantId, DEV_ACCOUNTS.merchant.address);
    const storefront = (await post('/v1/storefront', shop.secretKey, { slug: 'plain-shop', name: 'Plain shop' })).json();
    const product = await createProduct(shop.secretKey, { name: 'Mug', amount: '2000000' });
    const bought = (await t.app.inject({ method: 'POST', url: `/store/plain-shop/products/${product.id}/purchase` })).json();
    // The API keeps the URL as written; the checkout page reads it filled in.
    const session = (await get(`/v1/payment-sessions/${bought.paymentSessionId}`, shop.secretKey)).json();
    expect(session.successUrl).toBe(`${storefront.url}?purchased=${product.id}&session={PAYMENT_SESSION_ID}`);
    const checkout = (await t.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${bought.paymentSessionId}` })).json();
    expect(checkout.successUrl).toBe(`${storefront.url}?purchased=${product.id}&session=${bought.paymentSessionId}`);
    expect(checkout.cancelUrl).toBe(storefront.url);

    // A payment session of the API, the placeholder written as is and percent-encoded.
    const created = await post('/v1/payment-sessions', shop.secretKey, {
      amount: '1000000',
      successUrl: 'https://shop.example/done/{PAYMENT_SESSION_ID}?again=%7BPAYMENT_SESSION_ID%7D',
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id;
    expect(created.json().successUrl).toBe('https://shop.example/done/{PAYMENT_SESSION_ID}?again=%7BPAYMENT_SESSION_ID%7D');
    const filled = (await t.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${id}` })).json();
    expect(filled.successUrl).toBe(`https://shop.example/done/${id}?again=${id}`);
  });

  it('an archived product leaves the page and cannot be bought, while its old sessions keep it', async () => {
    const product = await createProduct(merchant.secretKey, { name: 'Seasonal', amount: '3000000' });
    const bought = (await t.app.inject({ method: 'POST', url: `/store/corner-shop/products/${product.id}/purchase` })).json();
    expect((await post(`/v1/storefront/products/${product.id}/archive`, merchant.secretKey)).statusCode).toBe(200);
    const page = (await t.app.inject({ method: 'GET', url: '/store/corner-shop', headers: { accept: 'application/json' } })).json();
    expect(page.products.map((p: Json) => p.id)).not.toContain(product.id);
    const before = await count('payment_sessions');
    const refused = await t.app.inject({ method: 'POST', url: `/store/corner-shop/products/${product.id}/purchase` });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toMatchObject({ code: 'not_found', param: 'id' });
    expect(await count('payment_sessions')).toBe(before);
    expect((await get(`/v1/payment-sessions/${bought.paymentSessionId}`, merchant.secretKey)).json()).toMatchObject({
      productId: product.id,
      productName: 'Seasonal',
    });
  });

  it('refuses products of another store, inactive products and unknown stores with not_found, creating nothing', async () => {
    const inactive = await createProduct(merchant.secretKey, { name: 'Draft', amount: '1000000', active: false });
    const theirs = await createProduct(other.secretKey, { name: 'Theirs', amount: '1000000' });
    const mine = await createProduct(merchant.secretKey, { name: 'Mine', amount: '1000000' });
    const before = await count('payment_sessions');
    for (const url of [
      `/store/corner-shop/products/${inactive.id}/purchase`,
      `/store/corner-shop/products/${theirs.id}/purchase`,
      `/store/other-shop/products/${mine.id}/purchase`,
      `/store/corner-live/products/${mine.id}/purchase`,
      `/store/no-such-shop/products/${mine.id}/purchase`,
      `/store/corner-shop/products/not-a-product/purchase`,
    ]) {
      const response = await t.app.inject({ method: 'POST', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect(await count('payment_sessions')).toBe(before);
  });

  it('a plan product sends the buyer to the hosted enrolment of its plan', async () => {
    const plan = (
      await post('/v1/subscription-plans', merchant.secretKey, { name: 'Beans monthly', amount: '15000000', interval: 'monthly' })
    ).json();
    const product = await createProduct(merchant.secretKey, { name: 'Beans monthly', planId: plan.id });
    const page = (await t.app.inject({ method: 'GET', url: '/store/corner-shop', headers: { accept: 'application/json' } })).json();
    expect(page.products.find((p: Json) => p.id === product.id)).toMatchObject({
      kind: 'subscription',
      interval: 'monthly',
      intervalCount: 1,
      displayPrice: '15.00 USDC',
    });
    const html = (await t.app.inject({ method: 'GET', url: '/store/corner-shop' })).body;
    expect(html).toContain('/ month');
    const before = await count('payment_sessions');
    const purchase = (await t.app.inject({ method: 'POST', url: `/store/corner-shop/products/${product.id}/purchase` })).json();
    expect(purchase).toMatchObject({ kind: 'subscription', paymentSessionId: null, checkoutPath: `/checkout/plans/${plan.id}` });
    expect(await count('payment_sessions')).toBe(before);
    expect((await t.app.inject({ method: 'GET', url: purchase.checkoutPath })).statusCode).toBe(200);
  });

  it('rate-limits anonymous purchases per client IP before anything is created', async () => {
    const product = await createProduct(merchant.secretKey, { name: 'Limited', amount: '1000000' });
    const buy = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: `/store/corner-shop/products/${product.id}/purchase`, remoteAddress });
    for (let i = 0; i < STORE_PURCHASES_PER_IP_PER_MINUTE; i++) expect((await buy('203.0.113.7')).statusCode).toBe(200);
    const before = await count('payment_sessions');
    const refused = await buy('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await count('payment_sessions')).toBe(before);
    // Another client is not affected, and the page itself stays readable.
    expect((await buy('203.0.113.8')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/store/corner-shop', remoteAddress: '203.0.113.7' })).statusCode).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('documents the storefront, product and store routes with request and response schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const paths = doc.paths as Record<string, Record<string, Json>>;
    expect(Object.keys(paths['/v1/storefront']!)).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/v1/storefront/products']!)).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/v1/storefront/products/{id}']!)).toEqual(expect.arrayContaining(['get', 'post']));
    expect(paths['/v1/storefront/products/{id}/archive']!.post).toBeDefined();
    expect(paths['/store/{slug}']!.get).toBeDefined();
    expect(paths['/store/{slug}/products/{id}/purchase']!.post).toBeDefined();
    expect(JSON.stringify(paths['/v1/storefront']!.post)).toContain('requestBody');
    const schemas = Object.keys(doc.components?.schemas ?? {});
    expect(schemas).toEqual(expect.arrayContaining(['Storefront', 'Product', 'Store', 'StorePurchase']));
    expect(paths['/store/assets/store.js']).toBeUndefined();
  });
});
