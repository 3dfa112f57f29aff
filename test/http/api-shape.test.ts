// The API's shape as a merchant integration meets it (issue 13): opaque path
// ids, the merchant account with a secret key, list cursors typed as strings,
// operationIds for generated clients and the version header on refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { CURRENT_API_VERSION } from '../../src/http/versions.js';
import { setPinnedApiVersion } from '../../src/merchants/repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let idp: DevIdentityProvider;
let merchant: SeededMerchant;
let dashboardToken: string;

const OLD_VERSION = '2025-10-01';

beforeAll(async () => {
  db = await createTestDatabase();
  idp = await startDevIdentityProvider();
  t = await createTestApp(db.sql, {
    apiVersions: [OLD_VERSION, CURRENT_API_VERSION],
    env: { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: idp.audience, OIDC_JWKS_URL: idp.jwksUrl },
  });
  merchant = await seedMerchant(db.sql, 'Shape');
  dashboardToken = await idp.mintToken(`shape_${Date.now()}`, { email: 'shape@example.com', name: 'Shape' });
  expect((await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: auth(dashboardToken) })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await idp?.stop();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function openapi(): Promise<{ paths: Record<string, Record<string, any>>; components: any }> {
  const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** Bodies that pass validation on the action routes that need one, so only the id decides the answer. */
const VALID_BODIES: Record<string, object> = {
  'post /v1/refunds/{id}/signature': { transactionHash: `0x${'1'.repeat(64)}` },
  'post /v1/refunds/{id}/authorization': {
    authorization: {
      from: `0x${'1'.repeat(40)}`,
      to: `0x${'2'.repeat(40)}`,
      value: '1',
      validAfter: '0',
      validBefore: '9999999999',
      nonce: `0x${'1'.repeat(64)}`,
    },
    signature: `0x${'1'.repeat(130)}`,
  },
  'post /v1/webhook-listeners/{id}/answers': { requestId: `wlr_${'0'.repeat(26)}`, status: 200, durationMs: 1 },
  'post /v1/test-clocks/{id}/wallets': { wallets: [`0x${'1'.repeat(40)}`] },
  'post /v1/test-clocks/{id}/advance': { frozenTime: '2030-01-01T00:00:00.000Z' },
  'post /v1/subscriptions/{id}/discount': { coupon: `coupon_${'0'.repeat(26)}` },
  'post /v1/subscriptions/{id}/change-plan': { planId: `plan_${'0'.repeat(26)}` },
};

/** Query strings that pass validation on the reads that require one, so only the id decides the answer. */
const VALID_QUERIES: Record<string, string> = {
  'get /v1/billing/meters/{id}/event-summaries': `customerId=cus_${'0'.repeat(26)}&startTime=2030-01-01T00:00:00Z&endTime=2030-01-02T00:00:00Z`,
};

describe('path ids are opaque', () => {
  it('answers the ids of the issue with 404 not_found', async () => {
    const plan = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans/plan_doesnotexist', headers: auth(merchant.secretKey) });
    expect(plan.statusCode, plan.body).toBe(404);
    expect(plan.json().error).toMatchObject({ code: 'not_found', param: 'id' });
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/v1/subscriptions/sub_does_not_exist/cancel',
      headers: auth(merchant.secretKey),
      payload: { reason: 'test' },
    });
    expect(cancel.statusCode, cancel.body).toBe(404);
    expect(cancel.json().error).toMatchObject({ code: 'not_found', param: 'id' });
  });

  it('answers 404 not_found on every documented {id} route, whatever the shape of the id', async () => {
    const doc = await openapi();
    const routes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      path.startsWith('/v1/') && path.includes('{id}')
        ? Object.entries(operations).map(([method, operation]) => ({ path, method, operation }))
        : [],
    );
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const { path, method, operation } of routes) {
      const dashboardOnly = operation.security?.length === 1 && operation.security[0].dashboardSession;
      const key = dashboardOnly ? dashboardToken : merchant.secretKey;
      const query = VALID_QUERIES[`${method} ${path}`];
      for (const id of ['does_not_exist', 'plan_doesnotexist', 'x', `${path.split('/')[2]}_01HZZZZZZZZZZZZZZZZZZZZZZZ`]) {
        const response = await t.app.inject({
          method: method.toUpperCase() as 'GET' | 'POST',
          url: `${path.replace('{id}', encodeURIComponent(id))}${query ? `?${query}` : ''}`,
          headers: auth(key),
          ...(method === 'post' ? { payload: VALID_BODIES[`${method} ${path}`] ?? {} } : {}),
        });
        expect(response.statusCode, `${method} ${path} ${id}: ${response.body}`).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
    }
  });

  it('keeps too long ids and control characters invalid_request on id', async () => {
    for (const id of ['p'.repeat(256), 'p'.repeat(1024), 'plan_%01abc', 'plan_%7F']) {
      const response = await t.app.inject({ method: 'GET', url: `/v1/subscription-plans/${id}`, headers: auth(merchant.secretKey) });
      expect(response.statusCode, id).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'invalid_request', param: 'id' });
    }
    // Up to 255 characters an id is only looked up.
    const long = await t.app.inject({ method: 'GET', url: `/v1/subscription-plans/${'p'.repeat(255)}`, headers: auth(merchant.secretKey) });
    expect(long.statusCode).toBe(404);
    // Beyond what the router takes, the answer is still the error envelope.
    const huge = await t.app.inject({
      method: 'GET',
      url: `/v1/subscription-plans/${'p'.repeat(1025)}`,
      headers: auth(merchant.secretKey),
    });
    expect(huge.statusCode).toBeGreaterThanOrEqual(400);
    expect(huge.statusCode).toBeLessThan(500);
    expect(huge.json().error.code).toMatch(/invalid_request|not_found/);
  });

  it('claims no Idempotency-Key for an unknown id', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/subscriptions/whatever/cancel',
      headers: { ...auth(merchant.secretKey), 'idempotency-key': 'shape-unknown-id' },
      payload: {},
    });
    expect(response.statusCode).toBe(404);
    const [row] = await db.sql`select count(*)::int as n from idempotency_keys where key = 'shape-unknown-id'`;
    expect(row!.n).toBe(0);
  });

  it('documents path ids as plain strings, without a pattern a generated client would enforce', async () => {
    const doc = await openapi();
    const id = doc.paths['/v1/subscription-plans/{id}']!.get.parameters.find((p: { in: string }) => p.in === 'path');
    expect(id.schema).toMatchObject({ type: 'string', maxLength: 255 });
    expect(id.schema.pattern ?? '').not.toContain('plan_');
  });
});

describe('the merchant account with a secret key', () => {
  it('answers GET /v1/merchants/me and live-mode-eligibility for any secret key of the merchant', async () => {
    const narrow = await merchant.keyWithScopes(['plans_read']);
    for (const key of [merchant.secretKey, merchant.liveSecretKey, narrow]) {
      const me = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: auth(key) });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json()).toMatchObject({ object: 'merchant', id: merchant.merchantId, name: 'Shape' });
      const eligibility = await t.app.inject({ method: 'GET', url: '/v1/merchants/me/live-mode-eligibility', headers: auth(key) });
      expect(eligibility.statusCode, eligibility.body).toBe(200);
      expect(eligibility.json()).toMatchObject({ object: 'live_mode_eligibility', eligible: false });
    }
  });

  it('still answers them for a dashboard session', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: auth(dashboardToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('shape@example.com');
  });

  it('refuses them to publishable keys, and keeps account settings dashboard only', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/v1/merchants/me', headers: auth(merchant.publishableKey) });
    expect(me.statusCode).toBe(403);
    expect(me.json().error.code).toBe('permission_denied');
    const pin = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/api-version',
      headers: auth(merchant.secretKey),
      payload: { apiVersion: CURRENT_API_VERSION },
    });
    expect(pin.statusCode).toBe(403);
  });

  it('documents both credentials on the operation', async () => {
    const doc = await openapi();
    expect(doc.paths['/v1/merchants/me']!.get.security).toEqual([{ dashboardSession: [] }, { apiKey: [] }]);
    expect(doc.paths['/v1/merchants/me/live-mode-eligibility']!.get.security).toEqual([{ dashboardSession: [] }, { apiKey: [] }]);
  });
});

describe('list cursors', () => {
  it('are always strings: the next page cursor, or "" on the last page', async () => {
    const owner = await seedMerchant(db.sql, 'Cursor');
    for (const name of ['a', 'b', 'c']) {
      await t.app.inject({
        method: 'POST',
        url: '/v1/subscription-plans',
        headers: auth(owner.secretKey),
        payload: { name, amount: '1', interval: 'daily' },
      });
    }
    const first = (await t.app.inject({ method: 'GET', url: '/v1/subscription-plans?limit=2', headers: auth(owner.secretKey) })).json();
    expect(first.hasMore).toBe(true);
    expect(typeof first.nextCursor).toBe('string');
    expect(first.nextCursor).not.toBe('');
    const last = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/subscription-plans?limit=2&cursor=${first.nextCursor}`,
        headers: auth(owner.secretKey),
      })
    ).json();
    expect(last).toMatchObject({ hasMore: false, nextCursor: '' });
    const empty = (await t.app.inject({ method: 'GET', url: '/v1/webhook-endpoints', headers: auth(owner.secretKey) })).json();
    expect(empty).toEqual({ data: [], nextCursor: '', hasMore: false });
  });

  it('refuses an empty cursor, so a client looping on the wrong condition fails instead of starting over', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans?cursor=', headers: auth(merchant.secretKey) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });

  it('are typed string (never null) in the OpenAPI document, with the rule in the description', async () => {
    const doc = await openapi();
    let lists = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const schema = operation.responses?.['200']?.content?.['application/json']?.schema;
        if (!schema?.properties?.hasMore) continue;
        lists++;
        expect(schema.properties.nextCursor, `${method} ${path}`).toMatchObject({ type: 'string' });
        expect(JSON.stringify(schema.properties.nextCursor)).not.toContain('null');
        expect(schema.properties.nextCursor.description).toMatch(/empty/);
        expect(schema.required).toEqual(expect.arrayContaining(['data', 'nextCursor', 'hasMore']));
      }
    }
    expect(lists).toBeGreaterThanOrEqual(10);
  });
});

describe('operationIds', () => {
  it('gives every operation a unique camelCase operationId', async () => {
    const doc = await openapi();
    const ids: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
        ids.push(operation.operationId);
      }
    }
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('derives them from method and path, so they stay stable', async () => {
    const doc = await openapi();
    const expected: Array<[string, string, string]> = [
      ['/v1/subscription-plans', 'get', 'listSubscriptionPlans'],
      ['/v1/subscription-plans', 'post', 'createSubscriptionPlan'],
      ['/v1/subscription-plans/{id}', 'get', 'getSubscriptionPlan'],
      ['/v1/subscriptions/{id}/cancel', 'post', 'cancelSubscription'],
      ['/v1/subscriptions/{id}/change-plan', 'post', 'changeSubscriptionPlan'],
      ['/v1/webhook-deliveries/{id}/replay', 'post', 'replayWebhookDelivery'],
      ['/v1/payment-sessions', 'post', 'createPaymentSession'],
      ['/v1/relay/submissions/{idempotencyKey}', 'get', 'getRelaySubmissionByIdempotencyKey'],
      ['/v1/webhook-endpoints/{id}/rotate-secret', 'post', 'rotateWebhookEndpointSecret'],
      ['/v1/refunds/{id}/signature', 'post', 'recordRefundSignature'],
      ['/v1/merchants/me', 'get', 'getMerchant'],
      ['/v1/merchants/me/allowed-origins', 'put', 'setAllowedOrigins'],
    ];
    for (const [path, method, operationId] of expected)
      expect(doc.paths[path]?.[method]?.operationId, `${method} ${path}`).toBe(operationId);
  });
});

describe('the version header on refusals', () => {
  it('names the version on 401 and 403 replies: the requested one, else the current one', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans' });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['service-version']).toBe(CURRENT_API_VERSION);
    const revoked = await t.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans',
      headers: { ...auth(`sk_test_${'A'.repeat(48)}`), 'service-version': OLD_VERSION },
    });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.headers['service-version']).toBe(OLD_VERSION);

    const readOnly = await merchant.keyWithScopes(['plans_read']);
    const denied = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(readOnly),
      payload: { name: 'x', amount: '1', interval: 'daily' },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.headers['service-version']).toBe(CURRENT_API_VERSION);
    const deniedOld = await t.app.inject({
      method: 'GET',
      url: '/v1/api-keys',
      headers: { ...auth(merchant.secretKey), 'service-version': OLD_VERSION },
    });
    expect(deniedOld.statusCode).toBe(403);
    expect(deniedOld.headers['service-version']).toBe(OLD_VERSION);
  });

  it('names the current version when the requested one is unknown, and the pinned one once the caller is known', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans',
      headers: { ...auth(merchant.secretKey), 'service-version': '1999-01-01' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.headers['service-version']).toBe(CURRENT_API_VERSION);
    const pinned = await seedMerchant(db.sql, 'Pinned shape');
    await setPinnedApiVersion(db.sql, pinned.merchantId, OLD_VERSION);
    const missing = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans/plan_nope', headers: auth(pinned.secretKey) });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['service-version']).toBe(OLD_VERSION);
  });
});

describe('event payloads in the OpenAPI document', () => {
  it('documents the failure events of token refusals under webhooks, their objects referencing the API schemas', async () => {
    const doc = (await openapi()) as { webhooks?: Record<string, any>; components: any };
    const objectRefs: Record<string, string> = {
      'payment.failed': 'RelaySubmission',
      'refund.failed': 'Refund',
      'agent.job_failed': 'AgentJob',
      'subscription.charge_failed': 'SubscriptionCharge',
      'payment.deposit_sweep_blocked': 'PaymentSession',
    };
    for (const [type, component] of Object.entries(objectRefs)) {
      const schema = doc.webhooks?.[type]?.post?.requestBody?.content?.['application/json']?.schema;
      expect(schema, type).toBeDefined();
      expect(schema.properties.type).toEqual({ const: type });
      expect(schema.properties.data.properties.object.$ref).toBe(`#/components/schemas/${component}`);
      // The reference resolves: the component is in the document.
      expect(doc.components.schemas[component], component).toBeDefined();
      expect(doc.webhooks![type].post.description).toContain('`token_paused`');
    }
    expect(
      doc.webhooks!['payment.failed'].post.requestBody.content['application/json'].schema.properties.data.properties.retry.enum,
    ).toEqual(['never', 'later', 'dunning']);
    const sweepBlocked = doc.webhooks!['payment.deposit_sweep_blocked'].post.requestBody.content['application/json'].schema.properties.data;
    expect(sweepBlocked.required).toEqual(expect.arrayContaining(['deposit', 'payoutAddress', 'failureCode', 'retry']));
    expect(sweepBlocked.properties.retry.const).toBe('later');
    // The objects carry the named refusal.
    for (const component of ['RelaySubmission', 'Refund', 'AgentJob', 'SubscriptionCharge']) {
      expect(Object.keys(doc.components.schemas[component].properties), component).toContain('failureCode');
    }
    expect(doc.components.schemas.Refund.properties.status.enum).toContain('failed');
  });

  it('documents the coupon, promotion code and discount events with an example body each', async () => {
    const doc = (await openapi()) as { webhooks?: Record<string, any>; components: any };
    const objectRefs: Record<string, string> = {
      'coupon.created': 'Coupon',
      'coupon.updated': 'Coupon',
      'coupon.deleted': 'Coupon',
      'promotion_code.created': 'PromotionCode',
      'promotion_code.updated': 'PromotionCode',
      'customer.discount.created': 'Discount',
      'customer.discount.deleted': 'Discount',
      // Plan changes (issue 40, item 1): the subscription, with the change and what it replaced beside it.
      'subscription.updated': 'Subscription',
    };
    for (const [type, component] of Object.entries(objectRefs)) {
      const content = doc.webhooks?.[type]?.post?.requestBody?.content?.['application/json'];
      expect(content, type).toBeDefined();
      expect(content.schema.properties.type).toEqual({ const: type });
      const object = content.schema.properties.data.properties.object;
      expect(object.$ref ?? object.anyOf?.[0]?.$ref, type).toBe(`#/components/schemas/${component}`);
      expect(doc.components.schemas[component], component).toBeDefined();
      // The example is a body of this event whose object has the component's every required field.
      const example = content.examples[type].value;
      expect(example).toMatchObject({ object: 'event', type, livemode: false });
      for (const field of doc.components.schemas[component].required ?? [])
        expect(example.data.object, `${type}: ${field}`).toHaveProperty(field);
      if (type.startsWith('customer.discount.'))
        expect(content.schema.properties.data.properties.subscription.$ref).toBe('#/components/schemas/Subscription');
      if (type === 'subscription.updated') {
        expect(content.schema.properties.data.properties.planChange.$ref).toBe('#/components/schemas/SubscriptionPlanChange');
        for (const field of doc.components.schemas.SubscriptionPlanChange.required)
          expect(example.data.planChange, `planChange: ${field}`).toHaveProperty(field);
      }
    }
  });
});
