// The api -> outbox -> Temporal wiring against a real Temporal server: a state
// change records its event in the same transaction, the api wakes the task
// queue's event dispatcher, and the outbox sweep wakes it for any event the api
// did not tell it about.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDispatcherWorkflowId } from '../../workflows/event-dispatcher.js';
import { recordEvent } from '../../src/events/outbox.js';
import { SCHEDULES, ensureSchedules } from '../../src/temporal/schedules.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { fileURLToPath } from 'node:url';
import { recordHistory } from '../support/histories.js';
import { workflowBundle } from '../support/temporal.js';
import { replayRunningWorkflows } from '../../tools/replay/replay-running.js';

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

async function dispatched(eventId: string): Promise<Date> {
  for (let i = 0; i < 400; i++) {
    const [row] = await db.sql<{ dispatchedAt: Date | null }[]>`select dispatched_at as "dispatchedAt" from events where id = ${eventId}`;
    if (row?.dispatchedAt) return row.dispatchedAt;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`event ${eventId} was not dispatched within 20 s`);
}

describe('event dispatch through Temporal', () => {
  it('wakes the event dispatcher for the event a request recorded, which marks it dispatched', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { name: 'Wired', amount: '1000000', interval: 'daily' },
    });
    expect(response.statusCode).toBe(200);
    const [event] = await db.sql<
      { id: string; createdAt: Date }[]
    >`select id, created_at as "createdAt" from events where data->'object'->>'id' = ${response.json().id}`;
    const at = await dispatched(event!.id);
    expect(at.getTime()).toBeGreaterThanOrEqual(event!.createdAt.getTime());
    // One dispatcher per task queue, not a workflow per event.
    expect((await temporal.client.workflow.getHandle(eventDispatcherWorkflowId(temporal.taskQueue)).describe()).status.name).toBe(
      'RUNNING',
    );
    await expect(temporal.client.workflow.getHandle(event!.id).describe()).rejects.toThrow();
  });

  it('the outbox sweep wakes the dispatcher for events whose wake-up was missed', async () => {
    const missed = await db.sql.begin((tx) =>
      recordEvent(tx, {
        merchantId: merchant.merchantId,
        livemode: false,
        type: 'subscription_plan.created',
        data: { object: { id: 'plan_missed' } },
      }),
    );
    const started = await temporal.client.workflow.execute('outboxSweepWorkflow', {
      workflowId: `sweep-${missed.id}`,
      taskQueue: temporal.taskQueue,
      args: [{ olderThanSeconds: 0 }],
    });
    expect(started).toBeGreaterThanOrEqual(1);
    await recordHistory(temporal.client.workflow.getHandle(`sweep-${missed.id}`), 'outbox-sweep', 'event-dispatcher');
    await dispatched(missed.id);

    // A second sweep finds nothing waiting.
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

  it('npm run replay: the running dispatcher replays on the current workflows and fails on reordered commands', async () => {
    const query = `ExecutionStatus="Running" AND TaskQueue="${temporal.taskQueue}"`;
    const dispatcherId = eventDispatcherWorkflowId(temporal.taskQueue);
    // The first test left this task queue's dispatcher running; visibility catches up within moments.
    let outcomes = await replayRunningWorkflows(temporal.client, { query, replay: { workflowBundle: await workflowBundle() } });
    for (let i = 0; i < 100 && !outcomes.some((o) => o.workflowId === dispatcherId); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      outcomes = await replayRunningWorkflows(temporal.client, { query, replay: { workflowBundle: await workflowBundle() } });
    }
    expect(outcomes).toContainEqual({ workflowType: 'eventDispatcherWorkflow', workflowId: dispatcherId, runId: expect.any(String) });
    expect(outcomes.filter((o) => o.error)).toEqual([]);

    const reshaped = fileURLToPath(new URL('../fixtures/replay/reshaped-workflows.ts', import.meta.url));
    const broken = await replayRunningWorkflows(temporal.client, { query, replay: { workflowsPath: reshaped } });
    const dispatcher = broken.find((o) => o.workflowId === dispatcherId);
    expect(dispatcher?.error).toMatch(/[Nn]ondeterminism/);
  }, 60_000);
});
