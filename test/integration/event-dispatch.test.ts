// The api -> outbox -> Temporal wiring against a real Temporal server: a state
// change records its event in the same transaction, the api starts its
// dispatch workflow, and the outbox sweep starts any dispatch the api missed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/outbox.js';
import { SCHEDULES, ensureSchedules } from '../../src/temporal/schedules.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let temporal: DevServerWorker;

beforeAll(async () => {
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql);
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  await db?.drop();
});

describe('event dispatch through Temporal', () => {
  it('starts a dispatch workflow for the event a request recorded', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { name: 'Wired', amount: '1000000', interval: 'daily' },
    });
    expect(response.statusCode).toBe(200);
    const [event] = await db.sql<{ id: string }[]>`select id from events where data->'object'->>'id' = ${response.json().id}`;
    // The workflow id is the event id: wait for that very run to finish.
    await temporal.client.workflow.getHandle(event!.id).result();
    const [row] = await db.sql`select dispatched_at from events where id = ${event!.id}`;
    expect(row!.dispatched_at).toBeInstanceOf(Date);
  });

  it('the outbox sweep dispatches events whose start was missed', async () => {
    const missed = await db.sql.begin((tx) =>
      recordEvent(tx, { merchantId: merchant.merchantId, livemode: false, type: 'subscription_plan.created', data: { object: { id: 'plan_missed' } } }),
    );
    const started = await temporal.client.workflow.execute('outboxSweepWorkflow', {
      workflowId: `sweep-${missed.id}`,
      taskQueue: temporal.taskQueue,
      args: [{ olderThanSeconds: 0 }],
    });
    expect(started).toBeGreaterThanOrEqual(1);
    await temporal.client.workflow.getHandle(missed.id).result();
    const [row] = await db.sql`select dispatched_at from events where id = ${missed.id}`;
    expect(row!.dispatched_at).toBeInstanceOf(Date);

    // A second sweep finds nothing left to start.
    const again = await temporal.client.workflow.execute('outboxSweepWorkflow', {
      workflowId: `sweep-again-${missed.id}`,
      taskQueue: temporal.taskQueue,
      args: [{ olderThanSeconds: 0 }],
    });
    expect(again).toBe(0);
  });

  it('creates the periodic schedules once, however often the worker starts', async () => {
    await ensureSchedules(temporal.client, temporal.taskQueue);
    await ensureSchedules(temporal.client, temporal.taskQueue);
    try {
      for (const schedule of SCHEDULES) {
        const description = await temporal.client.schedule.getHandle(schedule.id).describe();
        expect(description.action.type).toBe('startWorkflow');
      }
    } finally {
      for (const schedule of SCHEDULES) await temporal.client.schedule.getHandle(schedule.id).delete();
    }
  });
});
