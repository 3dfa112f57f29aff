// Local webhook development end to end on real parts: the real app listening on
// a port, a real worker on the suite's Temporal dev server, Postgres between
// them. The CLI module (tools/dev/listen.ts) runs in-process against the api over
// HTTP, holds the listener's event stream and forwards to a local plain-HTTP
// receiver on 127.0.0.1; the independent `standardwebhooks` library verifies
// what arrives there. Also: the test-event route, and that live mode keeps
// every address rule.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTestKey, ListenError, main, startListening, type ListenSession } from '../../tools/dev/listen.js';
import { startHttpsReceiver, type HttpsReceiver } from '../../tools/dev/webhook-receiver.js';
import { recordEvent } from '../../src/events/outbox.js';
import { newId } from '../../src/ids.js';
import { insertEndpoint } from '../../src/webhooks/repo.js';
import { encryptSecret, generateSigningSecret, secretPrefix } from '../../src/webhooks/secrets.js';
import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.js';
import { deliveryRunId } from '../../src/webhooks/runs.js';
import type { Resolver } from '../../src/webhooks/targets.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, testWebhookSettings, type DevServerWorker } from '../support/temporal.js';

type LocalRequest = { path: string; headers: Record<string, string>; body: Buffer };
type LocalReceiver = {
  url: string;
  requests: LocalRequest[];
  answer: (request: LocalRequest) => { status: number; body?: string };
  close: () => Promise<void>;
};

/** The developer's local app: plain HTTP on 127.0.0.1, where only the CLI can reach it. */
async function startLocalReceiver(): Promise<LocalReceiver> {
  const local: LocalReceiver = { url: '', requests: [], answer: () => ({ status: 200, body: 'ok' }), close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const request = { path: req.url ?? '/', headers, body: Buffer.concat(chunks) };
      local.requests.push(request);
      const { status, body } = local.answer(request);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  local.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return local;
}

const dns: Record<string, string[]> = { 'receiver.test': ['127.0.0.1'] };
const resolver: Resolver = async (host) => dns[host] ?? [];

let db: TestDatabase;
let w: DevServerWorker;
let t: TestApp;
let apiUrl: string;
let local: LocalReceiver;
let receiver: HttpsReceiver;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
  local = await startLocalReceiver();
  w = await startDevServerWorker(db.sql, {
    // Private targets allowed (the HTTPS receiver is on 127.0.0.1): test mode only, whatever the setting.
    webhooks: { ...testWebhookSettings(), allowPrivateTargets: true, resolver, ca: receiver.certificate, attemptTimeoutMs: 5_000 },
  });
  t = await createTestApp(db.sql, {
    temporal: w.client,
    taskQueue: w.taskQueue,
    webhookResolver: resolver,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await w?.stop();
  await local?.close();
  await receiver?.close();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function deliveries(endpointId: string, key = merchant.secretKey) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/webhook-deliveries?endpointId=${endpointId}&limit=100`,
    headers: auth(key),
  });
  expect(response.statusCode).toBe(200);
  return (response.json().data as Array<Record<string, any>>).reverse();
}

async function createPlan(key = merchant.secretKey): Promise<string> {
  const plan = await t.app.inject({
    method: 'POST',
    url: '/v1/subscription-plans',
    headers: auth(key),
    payload: { name: 'Pro', amount: '1000000', interval: 'monthly' },
  });
  expect(plan.statusCode).toBe(200);
  const [event] = await db.sql<{ id: string }[]>`select id from events where data->'object'->>'id' = ${plan.json().id}`;
  return event!.id;
}

describe('npm run listen', () => {
  it('forwards each delivery, signed, to the local URL and records the local response on the delivery; failures retry on the usual schedule', async () => {
    const lines: string[] = [];
    const session: ListenSession = await startListening({
      forwardTo: `${local.url}/hooks`,
      events: ['subscription_plan.created'],
      apiKey: merchant.secretKey,
      apiUrl,
      log: (line) => lines.push(line),
    });
    try {
      await session.ready;
      expect(session.signingSecret).toMatch(/^whsec_/);
      const listener = (
        await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${session.listenerId}`, headers: auth(merchant.secretKey) })
      ).json();
      expect(listener).toMatchObject({
        kind: 'listener',
        mode: 'test',
        status: 'active',
        url: `listener:${local.url}/hooks`,
        events: ['subscription_plan.created'],
      });

      // First delivery: the local app answers 202.
      local.answer = () => ({ status: 202, body: 'accepted locally' });
      const eventId = await createPlan();
      const received = await until('the forwarded request', async () => local.requests.find((r) => r.headers['webhook-id'] === eventId));
      expect(received.path).toBe('/hooks');
      const payload = new Webhook(session.signingSecret).verify(received.body.toString('utf8'), received.headers) as Record<string, any>;
      expect(payload).toMatchObject({ id: eventId, object: 'event', type: 'subscription_plan.created', livemode: false });
      // The attempt is recorded as `sending` before the hand-off; wait for its outcome.
      const [first] = await until('the recorded attempt', async () => {
        const records = await deliveries(session.listenerId);
        return records.length > 0 && records[0]!.status !== 'sending' ? records : undefined;
      });
      expect(first).toMatchObject({
        eventId,
        endpointId: session.listenerId,
        status: 'succeeded',
        attempt: 1,
        responseStatus: 202,
        responseBodyExcerpt: 'accepted locally',
        error: null,
      });

      // Second event: the local app fails once (500), and the workflow's retry 5 s later gets 200.
      let calls = 0;
      local.answer = () => (++calls === 1 ? { status: 500, body: 'local bug' } : { status: 200, body: 'fixed' });
      const second = await createPlan();
      const attempts = await until('the retried attempt', async () => {
        const records = (await deliveries(session.listenerId)).filter((r) => r.eventId === second);
        return records.some((r) => r.status === 'succeeded') ? records : undefined;
      });
      expect(attempts.map((r) => [r.attempt, r.status, r.responseStatus, r.responseBodyExcerpt])).toEqual([
        [1, 'failed', 500, 'local bug'],
        [2, 'succeeded', 200, 'fixed'],
      ]);
      expect(lines.some((line) => line.includes(`[202] POST ${local.url}/hooks [${eventId}]`))).toBe(true);
    } finally {
      await session.stop();
    }

    // After the session: the listener is still there (it expires an hour later); attempts fail fast and are retried.
    await until('the session to close', async () => {
      const [row] = await db.sql`select closed_at from webhook_listener_sessions where endpoint_id = ${session.listenerId}`;
      return row?.closed_at ? true : undefined;
    });
    const [row] =
      await db.sql`select expires_at > now() + interval '55 minutes' as later from webhook_endpoints where id = ${session.listenerId}`;
    expect(row!.later).toBe(true);
    const missed = await createPlan();
    const failed = await until('an attempt without a listener', async () =>
      (await deliveries(session.listenerId)).find((r) => r.eventId === missed && r.status !== 'sending'),
    );
    expect(failed).toMatchObject({ status: 'failed', responseStatus: null, error: 'no listener connected (npm run listen)' });
    expect(failed.nextRetryAt).not.toBeNull();
    // Expired: nothing more is attempted, and it reads as disabled.
    await db.sql`update webhook_endpoints set expires_at = now() - interval '1 second' where id = ${session.listenerId}`;
    const read = (
      await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${session.listenerId}`, headers: auth(merchant.secretKey) })
    ).json();
    expect(read).toMatchObject({ status: 'disabled', disabledReason: 'expired' });
    const afterExpiry = await createPlan();
    await until('the dispatch', async () => {
      const [event] = await db.sql`select dispatched_at from events where id = ${afterExpiry}`;
      return event?.dispatched_at ? true : undefined;
    });
    // The fan-out skipped it: no delivery run was started.
    await expect(
      w.client.workflow.getHandle(deliveryRunId({ eventId: afterExpiry, endpointId: session.listenerId, sequence: 0 })).describe(),
    ).rejects.toThrow();
    const test = await t.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${session.listenerId}/test`,
      headers: auth(merchant.secretKey),
    });
    expect(test.statusCode).toBe(403);
    expect(test.json().error.code).toBe('session_invalid_state');
  });

  it('reconnects by itself when the stream drops, and keeps forwarding', async () => {
    const own = await seedMerchant(db.sql, 'Reconnect');
    const lines: string[] = [];
    const session = await startListening({
      forwardTo: `${local.url}/again`,
      apiKey: own.secretKey,
      apiUrl,
      log: (line) => lines.push(line),
    });
    try {
      await session.ready;
      t.app.server.closeAllConnections(); // the api drops every socket, the event stream included
      await until('a second session', async () => {
        const rows =
          await db.sql`select closed_at from webhook_listener_sessions where endpoint_id = ${session.listenerId} order by opened_at`;
        return rows.length === 2 && rows[0]!.closed_at && !rows[1]!.closed_at ? true : undefined;
      });
      expect(lines.some((line) => /reconnecting/.test(line))).toBe(true);
      local.answer = () => ({ status: 200, body: 'back' });
      const eventId = await createPlan(own.secretKey);
      await until('the forwarded request', async () =>
        local.requests.find((r) => r.path === '/again' && r.headers['webhook-id'] === eventId),
      );
      const [record] = await until('the recorded attempt', async () => {
        const records = await deliveries(session.listenerId, own.secretKey);
        return records.length > 0 && records[0]!.status !== 'sending' ? records : undefined;
      });
      expect(record).toMatchObject({ eventId, status: 'succeeded', responseStatus: 200, responseBodyExcerpt: 'back' });
    } finally {
      await session.stop();
    }
  });

  it('refuses a live key, in the CLI before any request and in the api', async () => {
    expect(() => checkTestKey(merchant.liveSecretKey)).toThrow(/test mode only: a live key is refused/);
    expect(() => checkTestKey('pk_live_abc')).toThrow(ListenError);
    await expect(startListening({ forwardTo: `${local.url}/hooks`, apiKey: merchant.liveSecretKey, apiUrl })).rejects.toThrow(
      /live key is refused/,
    );
    expect(await main(['--forward-to', `${local.url}/hooks`, '--api-key', merchant.liveSecretKey, '--api-url', apiUrl])).toBe(1);
    const [count] = await db.sql`select count(*)::int as n from webhook_endpoints where kind = 'listener' and livemode`;
    expect(count!.n).toBe(0);

    const api = await t.app.inject({ method: 'POST', url: '/v1/webhook-listeners', headers: auth(merchant.liveSecretKey), payload: {} });
    expect(api.statusCode).toBe(403);
    expect(api.json().error).toMatchObject({ code: 'permission_denied' });
    expect(api.json().error.message).toMatch(/test mode only/);
    // A listener cannot exist in live mode at all.
    await expect(
      db.sql`insert into webhook_endpoints (id, merchant_id, livemode, url, events, status, secret_ciphertext, secret_prefix, kind, expires_at)
             values (${newId('webhookEndpoint')}, ${merchant.merchantId}, true, 'listener:', '{*}', 'active', '\\x00', 'whsec_', 'listener', now())`,
    ).rejects.toThrow(/webhook_endpoints_listener_test_mode/);
  });

  it('keeps every address rule in live mode: a live endpoint never reaches loopback, even where test mode may', async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: auth(merchant.liveSecretKey),
      payload: { url: `https://127.0.0.1:${receiver.port}/live`, events: ['*'] },
    });
    expect(registered.statusCode).toBe(400);
    expect(registered.json().error).toMatchObject({ code: 'invalid_request', param: 'url' });
    // The same URL is accepted in test mode on this deployment (WEBHOOK_ALLOW_PRIVATE_TARGETS).
    const testMode = await t.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: auth(merchant.secretKey),
      payload: { url: `https://127.0.0.1:${receiver.port}/test-mode`, events: ['invoice.overdue'] },
    });
    expect(testMode.statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${testMode.json().endpoint.id}/disable`,
      headers: auth(merchant.secretKey),
    });

    // A live endpoint whose host came to resolve to loopback (stored as if it had been public): blocked at send time.
    const id = newId('webhookEndpoint');
    const secret = generateSigningSecret();
    await insertEndpoint(db.sql, {
      id,
      merchantId: merchant.merchantId,
      livemode: true,
      url: `https://receiver.test:${receiver.port}/live-rebound`,
      events: ['invoice.paid'],
      description: '',
      secretCiphertext: encryptSecret(testWebhookSettings()!.encryptionKey, id, secret),
      secretPrefix: secretPrefix(secret),
    });
    const event = await db.sql.begin((tx) =>
      recordEvent(tx, { merchantId: merchant.merchantId, livemode: true, type: 'invoice.paid', data: {} }),
    );
    const input = { eventId: event.id, endpointId: id, sequence: 0 };
    await w.client.workflow.start(webhookDeliveryWorkflow, { workflowId: deliveryRunId(input), taskQueue: w.taskQueue, args: [input] });
    const [attempt] = await until('the blocked attempt', async () => {
      const records = await deliveries(id, merchant.liveSecretKey);
      return records.length > 0 && records[0]!.status !== 'sending' ? records : undefined;
    });
    expect(attempt).toMatchObject({ status: 'failed', responseStatus: null, livemode: true });
    expect(attempt!.error).toMatch(/^blocked: .*not public \(loopback\)/);
    expect(receiver.requests.filter((r) => r.path === '/live-rebound')).toHaveLength(0);
    await w.client.workflow.getHandle(deliveryRunId({ eventId: event.id, endpointId: id, sequence: 0 })).terminate('test over');
  });
});

describe('POST /v1/webhook-endpoints/{id}/test', () => {
  async function createEndpoint(path: string, key = merchant.secretKey) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: auth(key),
      payload: { url: `https://receiver.test:${receiver.port}${path}`, events: ['*'] },
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { endpoint: { id: string }; signingSecret: string };
  }

  it('delivers a signed test event to that endpoint only, through the delivery workflow, and answers with the delivery', async () => {
    const own = await seedMerchant(db.sql, 'Test events');
    const a = await createEndpoint('/test-a', own.secretKey);
    const b = await createEndpoint('/test-b', own.secretKey);
    const headers = { ...auth(own.secretKey), 'idempotency-key': 'test-event-1' };
    const response = await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${a.endpoint.id}/test`, headers });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ object: 'webhook_test_event', endpointId: a.endpoint.id, eventType: 'webhook_endpoint.test' });
    expect(body.delivery).toMatchObject({
      object: 'webhook_delivery',
      endpointId: a.endpoint.id,
      eventId: body.eventId,
      eventType: 'webhook_endpoint.test',
      status: 'succeeded',
      attempt: 1,
      responseStatus: 200,
    });

    const toA = receiver.requests.filter((r) => r.path === '/test-a');
    expect(toA).toHaveLength(1);
    const payload = new Webhook(a.signingSecret).verify(toA[0]!.body.toString('utf8'), toA[0]!.headers) as Record<string, any>;
    expect(payload).toMatchObject({
      id: body.eventId,
      type: 'webhook_endpoint.test',
      livemode: false,
      data: { object: { id: a.endpoint.id } },
    });
    // Recorded as an event, already dispatched: the dispatcher never fans it out to B (subscribed to *).
    const [event] = await db.sql`select type, dispatched_at from events where id = ${body.eventId}`;
    expect(event).toMatchObject({ type: 'webhook_endpoint.test' });
    expect(event!.dispatched_at).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.requests.filter((r) => r.path === '/test-b')).toHaveLength(0);
    const runs = await db.sql`select endpoint_id from webhook_delivery_runs where event_id = ${body.eventId}`;
    expect(runs.map((r) => r.endpoint_id)).toEqual([a.endpoint.id]);
    expect(await deliveries(b.endpoint.id, own.secretKey)).toEqual([]);

    // The Idempotency-Key replays the answer and sends nothing more.
    const again = await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${a.endpoint.id}/test`, headers });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(body);
    expect(receiver.requests.filter((r) => r.path === '/test-a')).toHaveLength(1);

    // Another merchant's endpoint, or the other mode's key: not found. Read-only key: refused. Disabled: invalid state.
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${a.endpoint.id}/test`, headers: auth(merchant.secretKey) }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${a.endpoint.id}/test`, headers: auth(own.liveSecretKey) }))
        .statusCode,
    ).toBe(404);
    const readOnly = await own.keyWithScopes(['webhooks_read']);
    const refused = await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${a.endpoint.id}/test`, headers: auth(readOnly) });
    expect(refused.json().error.code).toBe('permission_denied');
    await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${b.endpoint.id}/disable`, headers: auth(own.secretKey) });
    const disabled = await t.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${b.endpoint.id}/test`,
      headers: auth(own.secretKey),
    });
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json().error.code).toBe('session_invalid_state');
    await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${a.endpoint.id}/disable`, headers: auth(own.secretKey) });
  });

  it('sends a test event to a listener, whose CLI forwards it to the local URL', async () => {
    const own = await seedMerchant(db.sql, 'Listener test event');
    const session = await startListening({ forwardTo: `${local.url}/tested`, apiKey: own.secretKey, apiUrl, log: () => undefined });
    try {
      await session.ready;
      local.answer = () => ({ status: 204 });
      const response = await t.app.inject({
        method: 'POST',
        url: `/v1/webhook-endpoints/${session.listenerId}/test`,
        headers: auth(own.secretKey),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().delivery).toMatchObject({ status: 'succeeded', responseStatus: 204, endpointId: session.listenerId });
      const received = local.requests.filter((r) => r.path === '/tested');
      expect(received).toHaveLength(1);
      expect(new Webhook(session.signingSecret).verify(received[0]!.body.toString('utf8'), received[0]!.headers)).toMatchObject({
        type: 'webhook_endpoint.test',
      });
    } finally {
      await session.stop();
    }
  });
});

describe('the stream as the OpenAPI document describes it', () => {
  it('answers text/event-stream whose events match the documented per-event schema (what schemathesis checks)', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/webhook-listeners', headers: auth(merchant.secretKey), payload: {} });
    expect(created.statusCode).toBe(200);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = doc.paths['/v1/webhook-listeners/{id}/stream'].get.responses['200'].content as Record<string, { schema: object }>;
    expect(Object.keys(documented)).toEqual(['text/event-stream']);

    const controller = new AbortController();
    const response = await fetch(`${apiUrl}${created.json().streamPath}`, { headers: auth(merchant.secretKey), signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // The first event (`ready`), parsed as an SSE client (and schemathesis) reads one: its fields, by name.
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const event = Object.fromEntries(
      text
        .slice(0, text.indexOf('\n\n'))
        .split('\n')
        .filter((line) => !line.startsWith(':'))
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]),
    );
    expect(event.event).toBe('ready');
    const validate = new Ajv({ strict: false }).compile(documented['text/event-stream']!.schema);
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    // A stream that is not one of the documented events is refused by the same schema (the check can fail).
    expect(validate({ event: 'other', data: '{}' })).toBe(false);
  });
});
