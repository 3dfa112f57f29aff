// Webhook delivery end to end on the time-skipping server: the real app
// records events and wakes the event dispatcher, a real worker fans them out and
// sends signed POSTs to a real HTTPS receiver, and the independent
// `standardwebhooks` library verifies every signature.
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { recordEvent } from '../../src/events/outbox.js';
import { wakeEventDispatcher } from '../../src/events/dispatch.js';
import { eventDispatcherWorkflowId } from '../../workflows/event-dispatcher.js';
import { startDeliveryRun } from '../../src/webhooks/starts.js';
import { createWorker } from '../../src/temporal/worker.js';
import { TASK_QUEUES } from '../../src/temporal/task-queues.js';
import { loadConfig } from '../../src/config.js';
import { deliveryRunId } from '../../src/webhooks/runs.js';
import { newId } from '../../src/ids.js';
import type { Resolver } from '../../src/webhooks/targets.js';
import { RETRY_SCHEDULE_MS } from '../../workflows/webhook-delivery.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { workflowBundle } from '../support/temporal.js';
import { recordHistory } from '../support/histories.js';
import { startHttpsReceiver, type HttpsReceiver } from '../../tools/dev/webhook-receiver.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';

let env: TestWorkflowEnvironment;
let bundle: { code: string };
let db: TestDatabase;
let receiver: HttpsReceiver;
let t: TestApp;
let merchant: SeededMerchant;
let sink: SmtpSink;
let mailer: Mailer;

const dns: Record<string, string[]> = { 'receiver.test': ['127.0.0.1'], 'rebind.test': ['127.0.0.1'] };
const resolver: Resolver = async (host) => dns[host] ?? [];
const config = loadConfig({ DATABASE_URL: 'postgres://unused' });

beforeAll(async () => {
  bundle = await workflowBundle();
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
});
afterAll(async () => {
  mailer?.close();
  await sink?.stop();
  await receiver?.close();
  await db?.drop();
});
afterEach(() => {
  receiver.requests.length = 0;
});

/**
 * Each test gets its own time-skipping environment (and an app whose client
 * talks to it): skipped time and the server's time-skipping lock are global to
 * one environment, and a fresh one keeps tests independent.
 */
beforeEach(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
  });
  t = await createTestApp(db.sql, { temporal: env.client, webhookResolver: resolver, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  merchant = await seedMerchant(db.sql); // a merchant per test: no endpoint of one test sees another's events
});
afterEach(async () => {
  await t?.close();
  await env?.teardown();
});

function worker(options: { allowPrivateTargets?: boolean } = {}): Promise<Worker> {
  return createWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    sql: db.sql,
    temporal: env.client,
    workflowBundle: bundle,
    taskQueue: TASK_QUEUES.main,
    mailer,
    webhooks: {
      encryptionKey: config.webhooks.secretEncryptionKey,
      allowPrivateTargets: options.allowPrivateTargets ?? true,
      resolver,
      ca: receiver.certificate,
      attemptTimeoutMs: 5_000,
    },
  });
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
let pathCounter = 0;

async function createEndpoint(events: string[] = ['subscription_plan.created'], host = 'receiver.test', key = merchant.secretKey) {
  const path = `/hook-${++pathCounter}`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/webhook-endpoints',
    headers: auth(key),
    payload: { url: `https://${host}:${receiver.port}${path}`, events },
  });
  expect(response.statusCode).toBe(200);
  const { endpoint, signingSecret } = response.json();
  return { id: endpoint.id as string, secret: signingSecret as string, path };
}

/** Creates a plan through the API (which records and dispatches its event); returns the event id. */
async function createPlanEvent(key = merchant.secretKey): Promise<string> {
  const plan = (
    await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(key),
      payload: { name: 'Pro', amount: '1000000', interval: 'monthly' },
    })
  ).json();
  const [event] = await db.sql<{ id: string }[]>`select id from events where data->'object'->>'id' = ${plan.id}`;
  return event!.id;
}

/** Waits (real time) until the dispatcher has fanned the event out and marked it dispatched. */
async function dispatched(eventId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const [row] = await db.sql<{ dispatchedAt: Date | null }[]>`select dispatched_at as "dispatchedAt" from events where id = ${eventId}`;
    if (row?.dispatchedAt) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`event ${eventId} was not dispatched within 20 s`);
}

async function runResult(eventId: string, endpointId: string, sequence = 0): Promise<string> {
  return env.client.workflow.getHandle(deliveryRunId({ eventId, endpointId, sequence })).result();
}

async function deliveries(endpointId: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/webhook-deliveries?endpointId=${endpointId}&limit=100`,
    headers: auth(merchant.secretKey),
  });
  expect(response.statusCode).toBe(200);
  return (response.json().data as Array<Record<string, any>>).reverse();
}

const verify = (secret: string, request: { body: Buffer; headers: Record<string, string> }) =>
  new Webhook(secret).verify(request.body.toString('utf8'), request.headers);

describe('webhook delivery', () => {
  it('delivers a signed event over HTTPS to subscribed endpoints of the same merchant and mode only', async () => {
    const subscribed = await createEndpoint(['subscription_plan.created']);
    const wildcard = await createEndpoint(['*']);
    const other = await createEndpoint(['invoice.paid']);
    const live = await t.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: auth(merchant.liveSecretKey),
      payload: { url: `https://receiver.test:${receiver.port}/live`, events: ['*'] },
    });
    expect(live.statusCode).toBe(400); // live mode never reaches a private target, whatever the setting
    const w = await worker();
    await w.runUntil(async () => {
      const eventId = await createPlanEvent();
      await dispatched(eventId);
      expect(await runResult(eventId, subscribed.id)).toBe('succeeded');
      expect(await runResult(eventId, wildcard.id)).toBe('succeeded');

      const toSubscribed = receiver.requests.filter((r) => r.path === subscribed.path);
      expect(toSubscribed).toHaveLength(1);
      expect(receiver.requests.filter((r) => r.path === other.path)).toHaveLength(0);
      const request = toSubscribed[0]!;
      expect(request.headers['webhook-id']).toBe(eventId);
      expect(request.headers.host).toBe(`receiver.test:${receiver.port}`);
      const payload = verify(subscribed.secret, request) as Record<string, any>;
      expect(payload).toMatchObject({ id: eventId, object: 'event', type: 'subscription_plan.created', livemode: false });
      expect(payload.data.object).toMatchObject({ object: 'subscription_plan', name: 'Pro' });
      expect(() => verify(wildcard.secret, request)).toThrow();
      verify(
        wildcard.secret,
        receiver.requests.find((r) => r.path === wildcard.path)!,
      );

      const records = await deliveries(subscribed.id);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        object: 'webhook_delivery',
        eventId,
        endpointId: subscribed.id,
        eventType: 'subscription_plan.created',
        status: 'succeeded',
        attempt: 1,
        replay: 0,
        responseStatus: 200,
        responseBodyExcerpt: 'ok',
        error: null,
        nextRetryAt: null,
      });
      const one = await t.app.inject({ method: 'GET', url: `/v1/webhook-deliveries/${records[0]!.id}`, headers: auth(merchant.secretKey) });
      expect(one.json()).toEqual(records[0]);
      // One dispatcher for the task queue, woken by the request's commit.
      await recordHistory(env.client.workflow.getHandle(eventDispatcherWorkflowId(TASK_QUEUES.main)), 'event-dispatcher', 'base');
    });
    await db.sql`update webhook_endpoints set status = 'disabled' where merchant_id = ${merchant.merchantId}`;
  });

  it('signs with both secrets during a rotation overlap, each verifiable on its own', async () => {
    const endpoint = await createEndpoint();
    const rotated = (
      await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, headers: auth(merchant.secretKey) })
    ).json();
    const w = await worker();
    await w.runUntil(async () => {
      const eventId = await createPlanEvent();
      await dispatched(eventId);
      expect(await runResult(eventId, endpoint.id)).toBe('succeeded');
      const request = receiver.requests.find((r) => r.path === endpoint.path)!;
      expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(2);
      expect(verify(rotated.signingSecret, request)).toMatchObject({ id: eventId });
      expect(verify(endpoint.secret, request)).toMatchObject({ id: eventId });
    });
    await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/disable`, headers: auth(merchant.secretKey) });
  });

  it('retries on the schedule, honours Retry-After on 503, and records every attempt', async () => {
    const endpoint = await createEndpoint();
    let calls = 0;
    receiver.respond(endpoint.path, () => {
      calls++;
      if (calls === 1) return { status: 500, body: 'boom' };
      if (calls === 2) return { status: 503, headers: { 'retry-after': '7200' }, body: 'busy' };
      return { status: 204 };
    });
    const w = await worker();
    await w.runUntil(async () => {
      const eventId = await createPlanEvent();
      await dispatched(eventId);
      expect(await runResult(eventId, endpoint.id)).toBe('succeeded');
      await recordHistory(
        env.client.workflow.getHandle(deliveryRunId({ eventId, endpointId: endpoint.id, sequence: 0 })),
        'webhook-delivery-retried',
        'base',
      );
    });
    const records = await deliveries(endpoint.id);
    expect(records.map((r) => [r.attempt, r.status, r.responseStatus])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 503],
      [3, 'succeeded', 204],
    ]);
    expect(records[0]!.responseBodyExcerpt).toBe('boom');
    const gap = (r: Record<string, any>) => Date.parse(r.nextRetryAt) - Date.parse(r.attemptedAt);
    // first retry: 5 s +-10% jitter; second: the scheduled 5 min raised to Retry-After's 2 h
    expect(gap(records[0]!)).toBeGreaterThanOrEqual(4_500);
    expect(gap(records[0]!)).toBeLessThanOrEqual(5_500 + 1_000);
    expect(gap(records[1]!)).toBeGreaterThanOrEqual(7_200_000);
    expect(records[2]!.nextRetryAt).toBeNull();
    expect(new Set(receiver.requests.filter((r) => r.path === endpoint.path).map((r) => r.headers['webhook-id'])).size).toBe(1);
    await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/disable`, headers: auth(merchant.secretKey) });
  });

  it('ends at once on 410 Gone', async () => {
    const endpoint = await createEndpoint();
    receiver.respond(endpoint.path, () => ({ status: 410 }));
    const w = await worker();
    await w.runUntil(async () => {
      const eventId = await createPlanEvent();
      await dispatched(eventId);
      expect(await runResult(eventId, endpoint.id)).toBe('permanently_failed');
      await recordHistory(
        env.client.workflow.getHandle(deliveryRunId({ eventId, endpointId: endpoint.id, sequence: 0 })),
        'webhook-delivery-gone',
        'base',
      );
    });
    expect((await deliveries(endpoint.id)).map((r) => r.status)).toEqual(['permanently_failed']);
    await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/disable`, headers: auth(merchant.secretKey) });
  });

  it('fails permanently after the last attempt, disables after 5 in 24 hours, sends nothing while disabled, resumes on enable', async () => {
    const endpoint = await createEndpoint();
    receiver.respond(endpoint.path, () => ({ status: 500 }));
    const w = await worker();
    await w.runUntil(async () => {
      const eventIds: string[] = [];
      for (let i = 0; i < 4; i++) eventIds.push(await createPlanEvent());
      for (const id of eventIds) await dispatched(id);
      for (const id of eventIds) expect(await runResult(id, endpoint.id)).toBe('permanently_failed');
      let read = (
        await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: auth(merchant.secretKey) })
      ).json();
      expect(read.status).toBe('active'); // four is not enough

      const fifth = await createPlanEvent();
      await dispatched(fifth);
      expect(await runResult(fifth, endpoint.id)).toBe('permanently_failed');
      const records = (await deliveries(endpoint.id)).filter((r) => r.eventId === fifth);
      expect(records).toHaveLength(RETRY_SCHEDULE_MS.length);
      expect(records.map((r) => r.status)).toEqual([...Array(RETRY_SCHEDULE_MS.length - 1).fill('failed'), 'permanently_failed']);

      read = (await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: auth(merchant.secretKey) })).json();
      expect(read).toMatchObject({ status: 'disabled', disabledReason: 'too_many_failures' });
      const notices = await db.sql`select kind, data from webhook_endpoint_notices where endpoint_id = ${endpoint.id}`;
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ kind: 'webhook_endpoint.disabled', data: { reason: 'too_many_failures', permanentFailures: 5 } });
      // The merchant is told by email, queued in the same transaction as the notice.
      const emails =
        await db.sql`select to_address, subject, text_body from outbound_emails where kind = 'webhook_endpoint_disabled' and text_body like ${'%' + endpoint.id + '%'}`;
      expect(emails).toHaveLength(1);
      expect(emails[0]!.to_address).toBe('owner@example.com');
      const mail = await sink.waitFor((m) => m.subject === 'A webhook endpoint was disabled' && m.text.includes(endpoint.id));
      expect(mail.to).toEqual(['owner@example.com']);

      // disabled: the next event is not fanned out to it
      const before = receiver.requests.length;
      const missed = await createPlanEvent();
      await dispatched(missed);
      await expect(
        env.client.workflow.getHandle(deliveryRunId({ eventId: missed, endpointId: endpoint.id, sequence: 0 })).describe(),
      ).rejects.toThrow();
      expect(receiver.requests.length).toBe(before);

      receiver.respond(endpoint.path, () => ({ status: 200 }));
      const enabled = await t.app.inject({
        method: 'POST',
        url: `/v1/webhook-endpoints/${endpoint.id}/enable`,
        headers: auth(merchant.secretKey),
      });
      expect(enabled.json().status).toBe('active');
      const after = await createPlanEvent();
      await dispatched(after);
      expect(await runResult(after, endpoint.id)).toBe('succeeded');
    });
    await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/disable`, headers: auth(merchant.secretKey) });
  });

  it('stops pending retries when the endpoint is disabled', async () => {
    const endpoint = await createEndpoint();
    receiver.respond(endpoint.path, () => ({ status: 500 }));
    const w = await worker();
    await w.runUntil(async () => {
      const eventId = await createPlanEvent();
      await dispatched(eventId);
      // wait (real time) for the first attempt to be recorded, then disable before the retry
      for (let i = 0; i < 100 && (await deliveries(endpoint.id)).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/disable`, headers: auth(merchant.secretKey) });
      expect(await runResult(eventId, endpoint.id)).toBe('cancelled');
    });
    const records = await deliveries(endpoint.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'failed', nextRetryAt: null });
  });

  it('replays a delivery as a new attempt sequence with the same webhook-id', async () => {
    const endpoint = await createEndpoint();
    const w = await worker();
    await w.runUntil(async () => {
      const eventId = await createPlanEvent();
      await dispatched(eventId);
      expect(await runResult(eventId, endpoint.id)).toBe('succeeded');
      const [first] = await deliveries(endpoint.id);
      const replay = await t.app.inject({
        method: 'POST',
        url: `/v1/webhook-deliveries/${first!.id}/replay`,
        headers: auth(merchant.secretKey),
      });
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toMatchObject({
        object: 'webhook_replay',
        deliveryId: first!.id,
        eventId,
        endpointId: endpoint.id,
        replay: 1,
        status: 'queued',
      });
      expect(await runResult(eventId, endpoint.id, 1)).toBe('succeeded');
      const received = receiver.requests.filter((r) => r.path === endpoint.path);
      expect(received).toHaveLength(2);
      expect(received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
      expect(verify(endpoint.secret, received[1]!)).toMatchObject({ id: eventId });
      expect((await deliveries(endpoint.id)).map((r) => [r.replay, r.attempt, r.status])).toEqual([
        [0, 1, 'succeeded'],
        [1, 1, 'succeeded'],
      ]);

      await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/disable`, headers: auth(merchant.secretKey) });
      const refused = await t.app.inject({
        method: 'POST',
        url: `/v1/webhook-deliveries/${first!.id}/replay`,
        headers: auth(merchant.secretKey),
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('session_invalid_state');
      const foreign = await seedMerchant(db.sql, 'Foreign');
      expect(
        (await t.app.inject({ method: 'POST', url: `/v1/webhook-deliveries/${first!.id}/replay`, headers: auth(foreign.secretKey) }))
          .statusCode,
      ).toBe(404);
    });
  });

  it('records an attempt before its request is sent: in flight while the receiver answers, completed after', async () => {
    const endpoint = await createEndpoint();
    let requestArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (requestArrived = resolve));
    let answerNow!: () => void;
    const answer = new Promise<void>((resolve) => (answerNow = resolve));
    receiver.respond(endpoint.path, async () => {
      requestArrived();
      await answer;
      return { status: 204 };
    });
    const w = await worker();
    let inFlight: Array<Record<string, any>> = [];
    await w.runUntil(async () => {
      const eventId = await createPlanEvent();
      await arrived;
      inFlight = await deliveries(endpoint.id);
      answerNow();
      expect(await runResult(eventId, endpoint.id)).toBe('succeeded');
    });
    expect(inFlight.map((r) => [r.attempt, r.status, r.responseStatus])).toEqual([[1, 'sending', null]]);
    const completed = await t.app.inject({
      method: 'GET',
      url: `/v1/webhook-deliveries/${inFlight[0]!.id}`,
      headers: auth(merchant.secretKey),
    });
    expect(completed.json()).toMatchObject({ id: inFlight[0]!.id, status: 'succeeded', responseStatus: 204, attempt: 1 });
    expect((await deliveries(endpoint.id)).map((r) => [r.id, r.status])).toEqual([[inFlight[0]!.id, 'succeeded']]);
  });

  it('marks a send a crash cut short as interrupted when its attempt is sent again', async () => {
    const endpoint = await createEndpoint();
    const eventId = await createPlanEvent(); // no worker yet: nothing is sent
    const runId = deliveryRunId({ eventId, endpointId: endpoint.id, sequence: 0 });
    // What a worker killed mid-send leaves: the run, and its first attempt recorded as sending with no answer.
    const cutShort = newId('webhookDelivery');
    await db.sql`
      insert into webhook_delivery_runs (id, merchant_id, livemode, event_id, endpoint_id, sequence, status)
      values (${runId}, ${merchant.merchantId}, false, ${eventId}, ${endpoint.id}, 0, 'in_progress')`;
    await db.sql`
      insert into webhook_deliveries (id, merchant_id, livemode, run_id, endpoint_id, event_id, event_type, attempt, status, duration_ms, attempted_at)
      values (${cutShort}, ${merchant.merchantId}, false, ${runId}, ${endpoint.id}, ${eventId}, 'subscription_plan.created', 1, 'sending', 0, now() - interval '1 minute')`;
    const w = await worker();
    await w.runUntil(async () => {
      await dispatched(eventId);
      expect(await runResult(eventId, endpoint.id)).toBe('succeeded');
    });
    const records = await deliveries(endpoint.id);
    expect(records.map((r) => [r.id === cutShort, r.attempt, r.status, r.responseStatus])).toEqual([
      [true, 1, 'interrupted', null],
      [false, 1, 'succeeded', 200],
    ]);
    expect(records[0]!.error).toMatch(/^interrupted/);
    const interrupted = await t.app.inject({
      method: 'GET',
      url: `/v1/webhook-deliveries?endpointId=${endpoint.id}&status=interrupted`,
      headers: auth(merchant.secretKey),
    });
    expect(interrupted.json().data.map((r: { id: string }) => r.id)).toEqual([cutShort]);
  });

  it('a batch claimed again after a crash starts only the runs the crashed batch had not started', async () => {
    const a = await createEndpoint();
    const b = await createEndpoint(['*']);
    const w = await worker();
    await w.runUntil(async () => {
      const event = await db.sql.begin((tx) =>
        recordEvent(tx, {
          merchantId: merchant.merchantId,
          livemode: false,
          type: 'subscription_plan.created',
          data: { object: { id: 'plan_x' } },
        }),
      );
      // A batch that died before its commit had started the run to `a`: the event is still undispatched.
      expect(
        await startDeliveryRun(
          env.client,
          TASK_QUEUES.main,
          { merchantId: merchant.merchantId, livemode: false },
          { eventId: event.id, endpointId: a.id, sequence: 0 },
        ),
      ).toBe(true);
      await wakeEventDispatcher(env.client, TASK_QUEUES.main);
      await dispatched(event.id);
      expect(await runResult(event.id, a.id)).toBe('succeeded');
      expect(await runResult(event.id, b.id)).toBe('succeeded');
      expect(receiver.requests.filter((r) => r.path === a.path)).toHaveLength(1);
      expect(receiver.requests.filter((r) => r.path === b.path)).toHaveLength(1);
      const runs = await db.sql`select endpoint_id from webhook_delivery_runs where event_id = ${event.id}`;
      expect(runs.map((r) => r.endpoint_id).sort()).toEqual([a.id, b.id].sort());
    });
    for (const id of [a.id, b.id])
      await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${id}/disable`, headers: auth(merchant.secretKey) });
  });

  it('blocks a rebinding host at send time (public at registration, private at send)', async () => {
    const strict = await createTestApp(db.sql, { temporal: env.client, webhookResolver: resolver });
    try {
      dns['rebind.test'] = ['93.184.216.34'];
      const created = await strict.app.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        headers: auth(merchant.secretKey),
        payload: { url: `https://rebind.test:${receiver.port}/rebind`, events: ['*'] },
      });
      expect(created.statusCode).toBe(200);
      const endpointId = created.json().endpoint.id;
      dns['rebind.test'] = ['127.0.0.1'];
      const w = await worker({ allowPrivateTargets: false });
      await w.runUntil(async () => {
        const event = await db.sql.begin((tx) =>
          recordEvent(tx, { merchantId: merchant.merchantId, livemode: false, type: 'invoice.paid', data: { object: { id: 'inv_x' } } }),
        );
        await wakeEventDispatcher(env.client, TASK_QUEUES.main);
        await dispatched(event.id);
        expect(await runResult(event.id, endpointId)).toBe('permanently_failed');
      });
      expect(receiver.requests.filter((r) => r.path === '/rebind')).toHaveLength(0);
      const records = await deliveries(endpointId);
      expect(records).toHaveLength(RETRY_SCHEDULE_MS.length);
      for (const r of records) {
        expect(r.responseStatus).toBeNull();
        expect(r.error).toMatch(/^blocked: .*not public \(loopback\)/);
      }
    } finally {
      await strict.close();
    }
  });
});
