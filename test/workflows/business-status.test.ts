// BusinessStatus and the memo on every business workflow type, on the Temporal dev server (which has
// the attribute registered): each run is started through its own start helper (the start outbox, which
// stores the tags as JSON, or a direct start), driven by the cheapest real path to a later status, and
// then found by `MerchantId = ... AND BusinessStatus = "<status>"` through the visibility list API.
// Before issue 38 only subscriptions upserted BusinessStatus: these runs were not found.
import { WorkflowIdReusePolicy } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentJobWorkflowStart } from '../../src/agents/service.js';
import { insertJob } from '../../src/agents/repo.js';
import { newId } from '../../src/ids.js';
import { invoiceWorkflowStart } from '../../src/invoices/starts.js';
import { paymentSessionWorkflowStart } from '../../src/payment-sessions/starts.js';
import { refundWorkflowStart } from '../../src/refunds/starts.js';
import { performWorkflowStart, queueWorkflowStart, withSignal, type WorkflowStart } from '../../src/temporal/start-outbox.js';
import { CHAIN_ID_SEARCH_ATTRIBUTE } from '../../src/temporal/search-attributes.js';
import { startOptionsFor } from '../../src/temporal/workflow-tags.js';
import { insertTestClock } from '../../src/test-clocks/repo.js';
import { testClockDeleteSignal, testClockWorkflowId } from '../../workflows/clock-signals.js';
import { voidInvoiceSignal } from '../../workflows/invoice.js';
import { testClockWorkflow } from '../../workflows/test-clock.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

let db: TestDatabase;
let temporal: DevServerWorker;
let m: SeededMerchant;
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const hex = (byte: string, bytes: number) => `0x${byte.repeat(bytes)}`;

beforeAll(async () => {
  db = await createTestDatabase();
  m = await seedMerchant(db.sql);
  temporal = await startDevServerWorker(db.sql);
}, 60_000);
afterAll(async () => {
  await temporal?.stop();
  await db?.drop();
});

/** The way the api starts it: recorded in the outbox (tags as JSON), then performed. */
async function startThroughOutbox(start: WorkflowStart): Promise<void> {
  await performWorkflowStart(temporal.client, db.sql, await queueWorkflowStart(db.sql, start));
}

async function insertSession(expiresAt: Date): Promise<string> {
  const id = newId('paymentSession');
  await db.sql`
    insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at)
    values (${id}, ${m.merchantId}, false, 1000000, 'USDC', 'open', ${hex('90', 20)}, ${TOKEN}, 31337, ${expiresAt})`;
  return id;
}

/** The run's result, then the ids the visibility list finds by merchant and business status. */
async function foundBy(workflowId: string, status: string): Promise<string[]> {
  await temporal.client.workflow.getHandle(workflowId).result();
  const query = `MerchantId = '${m.merchantId}' AND BusinessStatus = '${status}'`;
  let ids: string[] = [];
  // Visibility is eventually consistent: the list catches up with the closed run within moments.
  for (let i = 0; i < 100; i++) {
    ids = [];
    for await (const run of temporal.client.workflow.list({ query })) ids.push(run.workflowId);
    if (ids.includes(workflowId)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return ids;
}

async function memoOf(workflowId: string): Promise<Record<string, unknown> | undefined> {
  return (await temporal.client.workflow.getHandle(workflowId).describe()).memo;
}

describe('BusinessStatus on every business workflow (dev server)', () => {
  it('a payment session that expires is found by BusinessStatus = "expired"', async () => {
    const id = await insertSession(new Date(Date.now() - 60_000));
    const [row] = await db.sql<{ expiresAt: Date }[]>`select expires_at as "expiresAt" from payment_sessions where id = ${id}`;
    await startThroughOutbox(
      paymentSessionWorkflowStart(temporal.taskQueue, {
        id,
        expiresAt: row!.expiresAt,
        merchantId: m.merchantId,
        livemode: false,
        status: 'open',
      }),
    );
    expect(await foundBy(id, 'expired')).toContain(id);
    expect(await memoOf(id)).toMatchObject({ merchantId: m.merchantId, livemode: false, object: 'payment_session', id, status: 'expired' });
  });

  it('an invoice voided through signal-with-start is found by BusinessStatus = "void"', async () => {
    const id = newId('invoice');
    const start = invoiceWorkflowStart(temporal.taskQueue, {
      id,
      dueAt: new Date(Date.now() + 86_400_000),
      merchantId: m.merchantId,
      livemode: false,
      number: 'INV-STATUS-1',
      status: 'sent',
    });
    await startThroughOutbox(withSignal(start, voidInvoiceSignal));
    expect(await foundBy(id, 'void')).toContain(id);
    expect(await memoOf(id)).toMatchObject({ object: 'invoice', id, status: 'void', invoiceNumber: 'INV-STATUS-1' });
  });

  it('a refund whose transfer succeeded is found by BusinessStatus = "succeeded"', async () => {
    const sessionId = await insertSession(new Date(Date.now() + 3_600_000));
    const id = newId('refund');
    // Its transfer confirmed before the run looked (a restarted run): the send step finds it succeeded.
    await db.sql`
      insert into refunds (id, merchant_id, livemode, payment_session_id, amount, currency, status, chain_id, token, from_address, to_address)
      values (${id}, ${m.merchantId}, false, ${sessionId}, 500000, 'USDC', 'succeeded', 31337, ${TOKEN}, ${hex('90', 20)}, ${hex('91', 20)})`;
    const start = refundWorkflowStart(temporal.taskQueue, {
      id,
      merchantId: m.merchantId,
      livemode: false,
      status: 'processing',
      chainId: '31337',
    });
    await startThroughOutbox(start);
    expect(await foundBy(start.workflowId, 'succeeded')).toContain(start.workflowId);
    expect(await memoOf(start.workflowId)).toMatchObject({ object: 'refund', id, status: 'succeeded' });
    // Its chain too (issue 39): the start carried the refund's ChainId.
    const described = await temporal.client.workflow.getHandle(start.workflowId).describe();
    expect(described.typedSearchAttributes.get(CHAIN_ID_SEARCH_ATTRIBUTE)).toBe(31337);
  });

  it('an agent job nobody approved in time is found by BusinessStatus = "expired"', async () => {
    const row = await insertJob(db.sql, {
      id: newId('agentJob'),
      merchantId: m.merchantId,
      livemode: false,
      vendorAddress: hex('92', 20),
      evaluatorAddress: hex('93', 20),
      description: 'business status',
      chainId: 31337,
      amount: '1000000',
      currency: 'USDC',
      amountUsdCents: '100',
      status: 'proposed',
      approvalReasons: ['amount_at_or_above_threshold'],
      expiresInSeconds: 3600,
      approvalDeadline: new Date(Date.now() - 1000),
    });
    await startThroughOutbox(agentJobWorkflowStart(temporal.taskQueue, row));
    expect(await foundBy(row.id, 'expired')).toContain(row.id);
    expect(await memoOf(row.id)).toMatchObject({ object: 'agent_job', id: row.id, status: 'expired' });
  });

  it('a deleted test clock is found by BusinessStatus = "deleted"', async () => {
    const clock = await insertTestClock(db.sql, {
      id: newId('testClock'),
      merchantId: m.merchantId,
      livemode: false,
      name: 'status',
      frozenTime: new Date(),
    });
    const workflowId = testClockWorkflowId(clock.id);
    // As src/test-clocks/service.ts starts it.
    await temporal.client.workflow.start(testClockWorkflow, {
      workflowId,
      taskQueue: temporal.taskQueue,
      args: [{ testClockId: clock.id, nowMs: clock.frozenTime.getTime() }],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      ...(await startOptionsFor(temporal.client, {
        merchantId: m.merchantId,
        livemode: false,
        object: 'test_clock',
        objectId: clock.id,
        businessStatus: clock.status,
      })),
    });
    await temporal.client.workflow.getHandle(workflowId).signal(testClockDeleteSignal);
    expect(await foundBy(workflowId, 'deleted')).toContain(workflowId);
    expect(await memoOf(workflowId)).toMatchObject({ object: 'test_clock', id: clock.id, status: 'deleted' });
  });
});
