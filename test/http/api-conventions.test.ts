// The API conventions every endpoint shares: error envelope, request ids,
// authentication forms, scopes, publishable keys, pagination, versions, logs
// and the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/api-keys/service.js';
import { CURRENT_API_VERSION } from '../../src/http/versions.js';
import { setPinnedApiVersion } from '../../src/merchants/repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;

const OLD_VERSION = '2025-10-01';

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql, { apiVersions: [OLD_VERSION, CURRENT_API_VERSION] });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const plan = { name: 'Basic', amount: '5000000', interval: 'weekly' };

function expectEnvelope(response: { statusCode: number; json: () => any; headers: Record<string, unknown> }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.requestId).toMatch(/^req_/);
  expect(response.headers['request-id']).toBe(body.error.requestId);
  return body.error;
}

describe('error envelope and request ids', () => {
  it('answers unknown routes with not_found in the envelope', async () => {
    expectEnvelope(await t.app.inject({ method: 'GET', url: '/v1/nothing-here' }), 404, 'not_found');
  });

  it('answers a known path asked with another method with 405 and Allow, before authentication', async () => {
    for (const [method, url, allow] of [
      ['DELETE', '/v1/subscription-plans', 'GET, HEAD, POST'],
      ['QUERY', '/v1/subscription-plans', 'GET, HEAD, POST'],
      ['PUT', '/v1/invoices/inv_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'GET, HEAD, POST'],
      ['GET', '/v1/invoices/inv_01ARZ3NDEKTSV4RRFFQ69G5FAV/send', 'POST'],
      ['PATCH', '/v1/events', 'GET, HEAD'],
    ] as const) {
      for (const headers of [auth(merchant.secretKey), {}]) {
        const response = await t.app.inject({ method, url, headers });
        expectEnvelope(response, 405, 'method_not_allowed');
        expect(response.headers.allow, `${method} ${url}`).toBe(allow);
      }
    }
    // A path no route answers is still not_found.
    expectEnvelope(await t.app.inject({ method: 'DELETE', url: '/v1/nothing-here', headers: auth(merchant.secretKey) }), 404, 'not_found');
  });

  it('gives every response a request id header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(merchant.secretKey) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['request-id']).toMatch(/^req_/);
  });

  it('refuses malformed JSON with invalid_request', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { ...auth(merchant.secretKey), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expectEnvelope(response, 400, 'invalid_request');
  });

  it('refuses a wrong content type with invalid_request', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { ...auth(merchant.secretKey), 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expect(expectEnvelope(response, 400, 'invalid_request').param).toBe('Content-Type');
  });

  it('refuses a body over the size limit with invalid_request', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { ...auth(merchant.secretKey), 'content-type': 'application/json' },
      payload: JSON.stringify({ ...plan, name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expectEnvelope(response, 400, 'invalid_request');
  });

  it('answers a path id of any other shape with not_found on id (ids are opaque)', async () => {
    for (const id of ['nope', 'inv_01HZZZZZZZZZZZZZZZZZZZZZZZ', 'plan_short']) {
      const response = await t.app.inject({ method: 'GET', url: `/v1/subscription-plans/${id}`, headers: auth(merchant.secretKey) });
      expect(expectEnvelope(response, 404, 'not_found').param).toBe('id');
    }
  });

  it('answers a well-formed id that does not exist with not_found', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans/plan_01HZZZZZZZZZZZZZZZZZZZZZZZ',
      headers: auth(merchant.secretKey),
    });
    expectEnvelope(response, 404, 'not_found');
  });

  it('lists every failed field in details.issues', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(merchant.secretKey),
      payload: { amount: 'ten', interval: 'hourly' },
    });
    const error = expectEnvelope(response, 400, 'invalid_request');
    const paths = error.details.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['amount', 'interval', 'name']);
  });

  it('refuses text Postgres cannot store (NUL, unpaired surrogates) with invalid_request naming the field, and stores nothing', async () => {
    const count = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from subscription_plans`)[0]!.n;
    const before = await count();
    // Sent as raw JSON so the escapes reach the server as written.
    const cases: Array<{ url: string; payload: string; param: string }> = [
      { url: '/v1/subscription-plans', payload: JSON.stringify({ ...plan, name: 'Gold' }).replace('Gold', 'Go\\u0000ld'), param: 'name' },
      { url: '/v1/subscription-plans', payload: JSON.stringify({ ...plan, name: 'Gold' }).replace('Gold', 'Go\\ud800ld'), param: 'name' },
      { url: '/v1/payment-sessions', payload: '{"amount":"1000","metadata":{"ord\\u0000er":"1"}}', param: 'metadata.ord\u0000er' },
      { url: '/v1/payment-sessions', payload: '{"amount":"1000","metadata":{"order":"\\udc00"}}', param: 'metadata.order' },
    ];
    for (const c of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: c.url,
        headers: { ...auth(merchant.secretKey), 'content-type': 'application/json' },
        payload: c.payload,
      });
      const error = expectEnvelope(response, 400, 'invalid_request');
      expect(error.param, c.payload).toBe(c.param);
      expect(error.details.issues[0].path).toBe(c.param);
    }
    // A surrogate pair (an emoji) is fine.
    const emoji = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(merchant.secretKey),
      payload: { ...plan, name: 'Gold \u{1F947}' },
    });
    expect(emoji.statusCode, emoji.body).toBe(200);
    expect(emoji.json().name).toBe('Gold \u{1F947}');
    const query = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans?cursor=ab%00cd', headers: auth(merchant.secretKey) });
    expect(expectEnvelope(query, 400, 'invalid_request').param).toBe('cursor');
    expect(await count()).toBe(before + 1);
  });

  it('refuses unknown body fields', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(merchant.secretKey),
      payload: { ...plan, colour: 'red' },
    });
    expectEnvelope(response, 400, 'invalid_request');
  });
});

describe('authentication', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['wrong scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer with no token', 'Bearer '],
    ['Bearer alone', 'Bearer'],
    ['unknown key', 'Bearer sk_test_' + 'A'.repeat(48)],
    ['garbage token', 'Bearer not-a-key'],
    ['two tokens', 'Bearer a b'],
  ])('refuses %s with authentication_error', async (_name, header) => {
    const headers = header === undefined ? {} : { authorization: header };
    const response = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers });
    expectEnvelope(response, 401, 'authentication_error');
  });

  it('refuses a revoked key at once, and keeps it in the audit log', async () => {
    const key = await merchant.keyWithScopes(['plans_read']);
    const ok = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(key) });
    expect(ok.statusCode).toBe(200);
    const [row] = await db.sql<
      { id: string }[]
    >`select id from api_keys where last4 = ${key.slice(-4)} and merchant_id = ${merchant.merchantId} order by id desc limit 1`;
    await revokeKey(db.sql, { merchantId: merchant.merchantId, keyId: row!.id, actor: 'test', reason: 'rotated' });
    // The revocation reaches every instance's key cache through NOTIFY.
    let refused = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(key) });
    for (let i = 0; i < 100 && refused.statusCode === 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      refused = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(key) });
    }
    expect(expectEnvelope(refused, 401, 'authentication_error').message).toMatch(/revoked/);
    const audit = await db.sql`select action from api_key_audit_log where api_key_id = ${row!.id} order by id`;
    expect(audit.map((a) => a.action)).toEqual(['issued', 'revoked']);
    const [kept] = await db.sql`select revoked_at from api_keys where id = ${row!.id}`;
    expect(kept!.revoked_at).toBeInstanceOf(Date);
  });

  it('lets public routes through without credentials', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/checkout/plans/plan_01HZZZZZZZZZZZZZZZZZZZZZZZ' });
    expectEnvelope(response, 404, 'not_found');
  });
});

describe('scopes and publishable keys', () => {
  it('refuses a key outside its scopes with permission_denied', async () => {
    const readOnly = await merchant.keyWithScopes(['plans_read']);
    const count = async () =>
      (await db.sql<{ n: number }[]>`select count(*)::int as n from subscription_plans where merchant_id = ${merchant.merchantId}`)[0]!.n;
    const before = await count();
    const response = await t.app.inject({ method: 'POST', url: '/v1/subscription-plans', headers: auth(readOnly), payload: plan });
    expect(expectEnvelope(response, 403, 'permission_denied').details.requiredScope).toBe('plans_write');
    expect(await count()).toBe(before);
  });

  it('allows a publishable key to read a single plan but not to list or write, whatever its scopes', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/subscription-plans', headers: auth(merchant.secretKey), payload: plan });
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/subscription-plans/${created.json().id}`,
      headers: auth(merchant.publishableKey),
    });
    expect(read.statusCode).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(merchant.publishableKey) });
    expect(expectEnvelope(list, 403, 'permission_denied').message).toMatch(/Publishable/);
    const write = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(merchant.publishableKey),
      payload: plan,
    });
    expect(expectEnvelope(write, 403, 'permission_denied').message).toMatch(/Publishable/);
  });
});

describe('pagination', () => {
  it('pages newest first with stable cursors while rows are inserted', async () => {
    const other = await seedMerchant(db.sql, 'Paging');
    const created: string[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/subscription-plans',
        headers: auth(other.secretKey),
        payload: { ...plan, name: `p${i}` },
      });
      created.push(response.json().id);
    }
    const first = (await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(other.secretKey) })).json();
    expect(first.data).toHaveLength(25);
    expect(first.hasMore).toBe(true);
    expect(first.data.map((p: { id: string }) => p.id)).toEqual([...created].reverse().slice(0, 25));

    // A plan created between pages must not shift the second page.
    await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(other.secretKey),
      payload: { ...plan, name: 'late' },
    });
    const second = (
      await t.app.inject({ method: 'GET', url: `/v1/subscription-plans?cursor=${first.nextCursor}`, headers: auth(other.secretKey) })
    ).json();
    expect(second.data.map((p: { id: string }) => p.id)).toEqual([...created].reverse().slice(25));
    expect(second.hasMore).toBe(false);
    expect(second.nextCursor).toBe('');

    const small = (await t.app.inject({ method: 'GET', url: '/v1/subscription-plans?limit=2', headers: auth(other.secretKey) })).json();
    expect(small.data).toHaveLength(2);
    const max = (await t.app.inject({ method: 'GET', url: '/v1/subscription-plans?limit=100', headers: auth(other.secretKey) })).json();
    expect(max.data).toHaveLength(31);
  });

  it.each(['0', '101', 'abc', '-1', '2.5', ''])('refuses limit=%s with invalid_request on limit', async (limit) => {
    const response = await t.app.inject({ method: 'GET', url: `/v1/subscription-plans?limit=${limit}`, headers: auth(merchant.secretKey) });
    expect(expectEnvelope(response, 400, 'invalid_request').param).toBe('limit');
  });

  it('refuses a forged cursor with invalid_request on cursor', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans?cursor=%%%garbage',
      headers: auth(merchant.secretKey),
    });
    expect(expectEnvelope(response, 400, 'invalid_request').param).toBe('cursor');
  });
});

describe('versions', () => {
  it('serves the current version by default and says so', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(merchant.secretKey) });
    expect(response.headers['service-version']).toBe(CURRENT_API_VERSION);
  });

  it('honours the Service-Version header', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans',
      headers: { ...auth(merchant.secretKey), 'service-version': OLD_VERSION },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['service-version']).toBe(OLD_VERSION);
  });

  it('refuses an unknown version with invalid_request on Service-Version', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans',
      headers: { ...auth(merchant.secretKey), 'service-version': '1999-01-01' },
    });
    expect(expectEnvelope(response, 400, 'invalid_request').param).toBe('Service-Version');
  });

  it("uses the merchant's pinned version when the header is absent", async () => {
    const pinned = await seedMerchant(db.sql, 'Pinned');
    await setPinnedApiVersion(db.sql, pinned.merchantId, OLD_VERSION);
    const response = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(pinned.secretKey) });
    expect(response.headers['service-version']).toBe(OLD_VERSION);
  });
});

describe('logs', () => {
  it('writes one structured line per request and never a key or token', async () => {
    t.logs.length = 0;
    await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(merchant.secretKey) });
    await t.app.inject({ method: 'POST', url: '/v1/subscription-plans', headers: auth(merchant.secretKey), payload: plan });
    await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: { authorization: `Bearer ${merchant.secretKey}x` } });
    const lines = t.logs.map((l) => JSON.parse(l));
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(3);
    expect(completed[0]).toMatchObject({ method: 'GET', route: '/v1/subscription-plans', status: 200 });
    expect(completed[0].requestId).toMatch(/^req_/);
    expect(typeof completed[0].durationMs).toBe('number');
    expect(completed[2].status).toBe(401);
    const all = t.logs.join('\n');
    expect(all).not.toContain(merchant.secretKey.slice(8));
    expect(all).not.toMatch(/sk_test_[A-Za-z0-9]{10}/);
  });
});

describe('OpenAPI document', () => {
  it('documents every route with its security and required scope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    const create = doc.paths['/v1/subscription-plans'].post;
    expect(create['x-required-scope']).toBe('plans_write');
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(create.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['name', 'amount', 'interval']));
    expect(doc.paths['/v1/checkout/plans/{id}'].get.security).toEqual([]);

    // Every documented /v1 operation is either public or names its scope.
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, operation] of Object.entries<any>(operations)) {
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        expect(
          isPublic || typeof operation['x-required-scope'] === 'string' || operation.security?.[0]?.dashboardSession,
          `${method} ${path}`,
        ).toBeTruthy();
      }
    }
  });

  it("resolves every $ref inside the document, and documents the error envelope as every operation's default response", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const refs = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.add(value);
        else walk(value);
      }
    };
    walk(doc);
    expect(refs.size).toBeGreaterThan(0);
    const resolve = (ref: string) =>
      ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<any>((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    expect([...refs].filter((ref) => !ref.startsWith('#/') || resolve(ref) === undefined)).toEqual([]);

    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, operation] of Object.entries<any>(operations)) {
        expect(operation.responses.default?.content?.['application/json']?.schema, `${method} ${path}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
    expect(doc.components.schemas.Error.properties.error.properties).toHaveProperty('code');
  });

  it('serves the interactive UI at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });

  it('refuses to register a /v1 route without an access rule', async () => {
    const fresh = await createTestApp(db.sql);
    try {
      expect(() => fresh.app.get('/v1/unguarded', async () => ({}))).toThrow();
    } finally {
      await fresh.close();
    }
  });
});
