// The event dispatcher (workflows/event-dispatcher.ts) on the suite's Temporal
// dev server: one long-lived workflow per task queue reads the outbox in
// batches and starts one webhook delivery run per event x subscribed endpoint.
// The crash test kills the worker running a batch (a child process) after part
// of the batch's runs were started and before the batch committed, then lets a
// fresh worker take over: every event reaches the receiver exactly once.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startHttpsReceiver, type HttpsReceiver } from '../../tools/dev/webhook-receiver.js';
import { wakeEventDispatcher } from '../../src/events/dispatch.js';
import { eventDispatcherWorkflowId } from '../../workflows/event-dispatcher.js';
import { recordEvent } from '../../src/events/outbox.js';
import { createWorker } from '../../src/temporal/worker.js';
import { deliveryRunId } from '../../src/webhooks/runs.js';
import type { Resolver } from '../../src/webhooks/targets.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import { workflowBundle } from '../support/temporal.js';

const resolver: Resolver = async (host) => (host === 'receiver.test' ? ['127.0.0.1'] : []);
const config = loadConfig({ DATABASE_URL: 'postgres://unused' });

let db: TestDatabase;
let receiver: HttpsReceiver;
let client: Client;
let t: TestApp;
let merchant: SeededMerchant;
const taskQueue = `test-dispatcher-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
  client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  t = await createTestApp(db.sql, {
    temporal: client,
    taskQueue,
    webhookResolver: resolver,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await client?.connection.close();
  await receiver?.close();
  await db?.drop();
});

async function worker(): Promise<{ worker: Worker; close: () => Promise<void> }> {
  const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  const w = await createWorker({
    connection,
    namespace: 'default',
    sql: db.sql,
    temporal: client,
    taskQueue,
    workflowBundle: await workflowBundle(),
    webhooks: {
      encryptionKey: config.webhooks.secretEncryptionKey,
      allowPrivateTargets: true,
      resolver,
      ca: receiver.certificate,
      attemptTimeoutMs: 5_000,
    },
  });
  return { worker: w, close: () => connection.close() };
}

async function createEndpoint(events: string[]): Promise<{ id: string; path: string }> {
  const path = `/hook-${randomBytes(3).toString('hex')}`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/webhook-endpoints',
    headers: { authorization: `Bearer ${merchant.secretKey}` },
    payload: { url: `https://receiver.test:${receiver.port}${path}`, events },
  });
  expect(response.statusCode).toBe(200);
  return { id: response.json().endpoint.id, path };
}

/** Events recorded straight into the outbox, as a commit does, without waking anyone. */
async function recordEvents(count: number, type: 'invoice.paid' | 'subscription_plan.created' = 'invoice.paid'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = await db.sql.begin((tx) =>
      recordEvent(tx, { merchantId: merchant.merchantId, livemode: false, type, data: { object: { id: `inv_${i}` } } }),
    );
    ids.push(event.id);
  }
  return ids;
}

async function undispatched(ids: string[]): Promise<number> {
  const [row] = await db.sql<
    { count: number }[]
  >`select count(*)::int as count from events where id in ${db.sql(ids)} and dispatched_at is null`;
  return row!.count;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function runExists(eventId: string, endpointId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(deliveryRunId({ eventId, endpointId, sequence: 0 })).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

describe('event dispatcher', () => {
  it('a request wakes the dispatcher, which delivers the event to subscribed endpoints only; an event nobody subscribes to starts nothing', async () => {
    const subscribed = await createEndpoint(['subscription_plan.created']);
    const { worker: w, close } = await worker();
    try {
      await w.runUntil(async () => {
        const created = await t.app.inject({
          method: 'POST',
          url: '/v1/subscription-plans',
          headers: { authorization: `Bearer ${merchant.secretKey}` },
          payload: { name: 'Pro', amount: '1000000', interval: 'monthly' },
        });
        expect(created.statusCode).toBe(200);
        const [event] = await db.sql<{ id: string }[]>`select id from events where data->'object'->>'id' = ${created.json().id}`;
        await until(async () => receiver.requests.some((r) => r.path === subscribed.path), 20_000, 'the delivery');
        expect(receiver.requests.filter((r) => r.path === subscribed.path).map((r) => r.headers['webhook-id'])).toEqual([event!.id]);
        expect(await undispatched([event!.id])).toBe(0);

        // invoice.paid: no endpoint subscribes to it. It is marked dispatched and no run exists.
        const [unrouted] = await recordEvents(1, 'invoice.paid');
        await wakeEventDispatcher(client, taskQueue);
        await until(async () => (await undispatched([unrouted!])) === 0, 20_000, 'the dispatch');
        expect(await runExists(unrouted!, subscribed.id)).toBe(false);
        const runs = await db.sql`select id from webhook_delivery_runs where event_id = ${unrouted!}`;
        expect(runs).toHaveLength(0);
      });
    } finally {
      await close();
    }
    await db.sql`update webhook_endpoints set status = 'disabled' where id = ${subscribed.id}`;
  });

  it('crash mid-batch: the worker running a batch is killed after starting part of it; a fresh worker delivers every event exactly once', async () => {
    const endpoint = await createEndpoint(['invoice.paid']);
    const ids = await recordEvents(60);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../support/event-dispatcher-worker-process.ts', import.meta.url))],
      {
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          TEMPORAL_ADDRESS: inject('temporalAddress'),
          TASK_QUEUE: taskQueue,
          WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
          HANG_AFTER_STARTS: '20',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let out = '';
      const seen = (line: string) =>
        new Promise<void>((resolve, reject) => {
          if (out.includes(line)) return resolve();
          child.stdout!.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            if (out.includes(line)) resolve();
          });
          child.once('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
        });
      await seen('worker-ready');
      await wakeEventDispatcher(client, taskQueue);
      await seen('starts-made');
      // Mid-batch: 20 runs started, the batch not committed.
      expect(await undispatched(ids)).toBe(ids.length);
      // The 20 starts it made were on the wire when it printed: wait for Temporal to have them all.
      const started = async () => (await Promise.all(ids.map((id) => runExists(id, endpoint.id)))).filter(Boolean).length;
      await until(async () => (await started()) === 20, 20_000, 'the first 20 runs');
      expect(await undispatched(ids)).toBe(ids.length);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }

    const { worker: w, close } = await worker();
    try {
      await w.runUntil(async () => {
        // The batch's activity times out on its heartbeat and runs again on this worker.
        await until(async () => (await undispatched(ids)) === 0, 90_000, 'the batch to be dispatched again');
        await until(async () => receiver.requests.filter((r) => r.path === endpoint.path).length >= ids.length, 90_000, 'every delivery');
        // Nothing more arrives: wait for any late duplicate a little longer.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const handle = client.workflow.getHandle(eventDispatcherWorkflowId(taskQueue));
        await recordHistory(handle, 'event-dispatcher', 'crashed-batch');
      });
    } finally {
      await close();
    }
    const received = receiver.requests.filter((r) => r.path === endpoint.path).map((r) => r.headers['webhook-id']!);
    expect(received).toHaveLength(ids.length);
    expect(new Set(received)).toEqual(new Set(ids));
    const runs = await db.sql<
      { eventId: string }[]
    >`select event_id as "eventId" from webhook_delivery_runs where endpoint_id = ${endpoint.id}`;
    expect(runs.map((r) => r.eventId).sort()).toEqual([...ids].sort());
  }, 240_000);
});
