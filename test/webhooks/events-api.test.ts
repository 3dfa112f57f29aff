// The events API (GET /v1/events, GET /v1/events/{id}) and test events of a chosen kind, end to end:
// the real app records events, a real worker on the suite's Temporal dev server delivers them to a
// real HTTPS receiver, and the API shows each event with the exact bytes each attempt sent.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsReceiver, type HttpsReceiver } from '../../tools/dev/webhook-receiver.js';
import { recordEvent } from '../../src/events/outbox.js';
import { newId } from '../../src/ids.js';
import type { Resolver } from '../../src/webhooks/targets.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, testWebhookSettings, type DevServerWorker } from '../support/temporal.js';

const dns: Record<string, string[]> = { 'receiver.test': ['127.0.0.1'] };
const resolver: Resolver = async (host) => dns[host] ?? [];

let db: TestDatabase;
let w: DevServerWorker;
let t: TestApp;
let receiver: HttpsReceiver;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
  w = await startDevServerWorker(db.sql, {
    webhooks: { ...testWebhookSettings(), allowPrivateTargets: true, resolver, ca: receiver.certificate, attemptTimeoutMs: 5_000 },
  });
  t = await createTestApp(db.sql, {
    temporal: w.client,
    taskQueue: w.taskQueue,
    webhookResolver: resolver,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await w?.stop();
  await receiver?.close();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function get(url: string, key = merchant.secretKey) {
  return t.app.inject({ method: 'GET', url, headers: auth(key) });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function createEndpoint(path: string, key = merchant.secretKey) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/webhook-endpoints',
    headers: auth(key),
    payload: { url: `https://receiver.test:${receiver.port}${path}`, events: ['*'] },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { endpoint: { id: string; url: string }; signingSecret: string };
}

async function record(type: Parameters<typeof recordEvent>[1]['type'], data: Record<string, unknown>, own = merchant, livemode = false) {
  return db.sql.begin((tx) => recordEvent(tx, { merchantId: own.merchantId, livemode, type, data }));
}

describe('GET /v1/events/{id}', () => {
  it('shows the event as its webhook carries it, with each attempt and the exact bytes it sent', async () => {
    const own = await seedMerchant(db.sql, 'Event detail');
    receiver.respond('/detail', () => ({ status: 200, body: '{"received":true}' }));
    const { endpoint, signingSecret } = await createEndpoint('/detail', own.secretKey);
    const plan = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(own.secretKey),
      payload: { name: 'Pro', amount: '1000000', interval: 'monthly' },
    });
    expect(plan.statusCode, plan.body).toBe(200);
    const planId = plan.json().id as string;

    const list = await get(`/v1/events?objectId=${planId}`, own.secretKey);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ hasMore: false, nextCursor: '' });
    const [listed] = list.json().data;
    expect(listed).toMatchObject({
      object: 'event',
      type: 'subscription_plan.created',
      livemode: false,
      objectId: planId,
      data: { object: { id: planId, name: 'Pro' } },
    });

    const received = await until('the delivery', async () => receiver.requests.find((r) => r.path === '/detail'));
    const sent = new Webhook(signingSecret).verify(received.body.toString('utf8'), received.headers) as Record<string, unknown>;
    // The event is the webhook payload plus objectId, field for field.
    const { objectId, ...payload } = listed;
    expect(objectId).toBe(planId);
    expect(payload).toEqual(sent);

    const detail = await until('the recorded attempt', async () => {
      const response = await get(`/v1/events/${listed.id}`, own.secretKey);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      return body.deliveries.length > 0 && body.deliveries[0].status !== 'sending' ? body : undefined;
    });
    expect(detail).toMatchObject({ id: listed.id, type: 'subscription_plan.created', objectId: planId });
    expect(detail.deliveries).toHaveLength(1);
    expect(detail.deliveries[0]).toMatchObject({
      object: 'webhook_delivery',
      endpointId: endpoint.id,
      endpointUrl: endpoint.url,
      status: 'succeeded',
      attempt: 1,
      replay: 0,
      responseStatus: 200,
      responseBodyExcerpt: '{"received":true}',
      error: null,
      nextRetryAt: null,
    });
    expect(detail.deliveries[0].requestBody).toBe(received.body.toString('utf8'));
    expect(Date.parse(detail.deliveries[0].attemptedAt)).not.toBeNaN();

    // Another merchant, the other mode, a key without webhooks_read: nothing.
    expect((await get(`/v1/events/${listed.id}`, merchant.secretKey)).statusCode).toBe(404);
    expect((await get(`/v1/events/${listed.id}`, own.liveSecretKey)).statusCode).toBe(404);
    const noScope = await own.keyWithScopes(['plans_read']);
    expect((await get(`/v1/events/${listed.id}`, noScope)).json().error.code).toBe('permission_denied');
    expect((await get('/v1/events', noScope)).json().error.code).toBe('permission_denied');
    const readOnly = await own.keyWithScopes(['webhooks_read']);
    expect((await get(`/v1/events/${listed.id}`, readOnly)).statusCode).toBe(200);
    expect((await get(`/v1/events/evt_01ARZ3NDEKTSV4RRFFQ69G5FAV`, own.secretKey)).json().error.code).toBe('not_found');
  });
});

describe('GET /v1/events', () => {
  it('filters by type, by object (related objects included) and by creation time, and pages with cursors', async () => {
    const own = await seedMerchant(db.sql, 'Event list');
    const subscriptionId = newId('subscription');
    const chargeId = newId('subscriptionCharge');
    const before = await record('subscription.created', { object: { id: subscriptionId, object: 'subscription' } }, own);
    const charged = await record(
      'subscription.charged',
      { object: { id: chargeId, object: 'subscription_charge', subscriptionId }, subscription: { id: subscriptionId } },
      own,
    );
    const other = await record('invoice.created', { object: { id: newId('invoice'), object: 'invoice' } }, own);
    await record('invoice.created', { object: { id: newId('invoice'), object: 'invoice' } }, own, true);

    const all = (await get('/v1/events', own.secretKey)).json();
    expect(all.data.map((e: { id: string }) => e.id)).toEqual([other.id, charged.id, before.id]);

    const bySubscription = (await get(`/v1/events?objectId=${subscriptionId}`, own.secretKey)).json();
    expect(bySubscription.data.map((e: { id: string }) => e.id)).toEqual([charged.id, before.id]);
    expect(bySubscription.data[0].objectId).toBe(chargeId);
    expect((await get(`/v1/events?objectId=${chargeId}`, own.secretKey)).json().data.map((e: { id: string }) => e.id)).toEqual([
      charged.id,
    ]);

    const byType = (await get('/v1/events?type=subscription.charged', own.secretKey)).json();
    expect(byType.data.map((e: { id: string }) => e.id)).toEqual([charged.id]);

    const from = encodeURIComponent(charged.createdAt.toISOString());
    const to = encodeURIComponent(other.createdAt.toISOString());
    const window = (await get(`/v1/events?createdFrom=${from}&createdTo=${to}`, own.secretKey)).json();
    const ids = window.data.map((e: { id: string }) => e.id);
    expect(ids).toContain(charged.id); // inclusive start
    expect(ids).not.toContain(before.createdAt < charged.createdAt ? before.id : 'none');
    if (other.createdAt > charged.createdAt) expect(ids).not.toContain(other.id); // exclusive end

    const first = (await get('/v1/events?limit=2', own.secretKey)).json();
    expect(first).toMatchObject({ hasMore: true });
    expect(first.data).toHaveLength(2);
    const second = (await get(`/v1/events?limit=2&cursor=${first.nextCursor}`, own.secretKey)).json();
    expect(second).toMatchObject({ hasMore: false, nextCursor: '' });
    expect(second.data.map((e: { id: string }) => e.id)).toEqual([before.id]);

    // An empty window is an empty page, not an error (the document cannot say "createdTo after createdFrom").
    const empty = (await get(`/v1/events?createdFrom=${to}&createdTo=${from}`, own.secretKey)).json();
    expect(empty).toMatchObject({ data: [], hasMore: false });

    const live = (await get('/v1/events', own.liveSecretKey)).json();
    expect(live.data).toHaveLength(1);
    expect(live.data[0].livemode).toBe(true);
  });

  it.each([
    ['type=invoice.exploded', 'type'],
    ['objectId=not-an-id', 'objectId'],
    ['createdFrom=0000-00-00', 'createdFrom'],
    ['createdTo=2026-13-01T00:00:00Z', 'createdTo'],
    ['limit=101', 'limit'],
    ['cursor=%21%21', 'cursor'],
  ])('refuses ?%s with invalid_request on %s', async (query, param) => {
    const response = await get(`/v1/events?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_request', param });
  });
});

describe('POST /v1/webhook-endpoints/{id}/test with a type', () => {
  it('sends a test event of the chosen kind, shaped like the newest real one, and names no real object', async () => {
    const own = await seedMerchant(db.sql, 'Typed test events');
    const { endpoint, signingSecret } = await createEndpoint('/typed', own.secretKey);
    const send = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/test`, headers: auth(own.secretKey), payload });

    // No invoice.paid yet: the kind, with no object.
    const empty = await send({ type: 'invoice.paid' });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toMatchObject({
      object: 'webhook_test_event',
      eventType: 'invoice.paid',
      delivery: { status: 'succeeded', responseStatus: 200 },
    });
    const firstBody = receiver.requests.filter((r) => r.path === '/typed').at(-1)!;
    const firstPayload = new Webhook(signingSecret).verify(firstBody.body.toString('utf8'), firstBody.headers) as Record<string, any>;
    expect(firstPayload).toMatchObject({ id: empty.json().eventId, type: 'invoice.paid', data: { object: null, test: true } });

    // With a real test-mode invoice.paid: its data, marked test, and the invoice's own history stays clean.
    const invoiceId = newId('invoice');
    const real = await record('invoice.paid', { object: { id: invoiceId, object: 'invoice', total: '28000000', status: 'paid' } }, own);
    const copied = await send({ type: 'invoice.paid' });
    expect(copied.statusCode, copied.body).toBe(200);
    const event = (await get(`/v1/events/${copied.json().eventId}`, own.secretKey)).json();
    expect(event).toMatchObject({
      type: 'invoice.paid',
      objectId: null,
      data: { test: true, object: { id: invoiceId, total: '28000000' } },
    });
    expect(event.deliveries[0]).toMatchObject({ endpointId: endpoint.id, responseStatus: 200 });
    const history = (await get(`/v1/events?objectId=${invoiceId}`, own.secretKey)).json();
    expect(history.data.map((e: { id: string }) => e.id)).toEqual([real.id]);

    // The default kind is unchanged.
    const plain = await send({});
    expect(plain.json()).toMatchObject({ eventType: 'webhook_endpoint.test' });

    // An unknown kind or an extra field: invalid_request, nothing recorded.
    const count = async () => (await db.sql`select count(*)::int as n from events where merchant_id = ${own.merchantId}`)[0]!.n as number;
    const n = await count();
    for (const payload of [{ type: 'invoice.exploded' }, { type: 42 }]) {
      const refused = await send(payload);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'invalid_request', param: 'type' });
    }
    const extra = await send({ kind: 'invoice.paid' });
    expect(extra.statusCode, extra.body).toBe(400);
    expect(extra.json().error.code).toBe('invalid_request');
    expect(extra.json().error.message).toContain('kind');
    expect(await count()).toBe(n);
  });
});
