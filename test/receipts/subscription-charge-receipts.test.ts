// The receipt of a subscription charge (issue 40, item 5): a real enrolment on a private anvil, charged by
// the subscription workflow on the time-skipping server, its subscription.charged event processed by the
// event dispatcher's batch (the activity the dispatcher runs), the email sent through the dev SMTP sink, and
// the receipt page and its PDF behind the emailed link. The other kinds are in receipts.test.ts.
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventActivities } from '../../activities/events.js';
import { onSubscriptionCreatedOnChain } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { PUBLIC_BASE_URL, startSubscriptionStack, type SubscriptionStack } from '../support/subscription-stack.js';
import { alignClocks, newPayer } from '../support/subscriptions.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));

let stack: SubscriptionStack;
let env: TestWorkflowEnvironment;
let t: TestApp;

beforeAll(async () => {
  stack = await startSubscriptionStack({ merchantName: 'Charge Receipts Co', plan: { name: 'Pro monthly', amount: USDC(10) } });
  env = stack.env;
  t = await createTestApp(stack.db.sql);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${stack.merchant.secretKey}` });
const setSwitch = async (subscriptionCharge: boolean) => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/v1/merchants/me/receipt-settings',
    headers: auth(),
    payload: { subscriptionCharge },
  });
  expect(res.statusCode, res.body).toBe(200);
};

/** A customer with `email`, enrolled for one period and charged for it by the workflow; returns the charge id. */
async function chargedSubscriber(email: string, taskQueue: string): Promise<string> {
  const deps = stack.chainEventDeps(taskQueue);
  await alignClocks(env, stack.chain);
  const payer = newPayer();
  await stack.chain.mint(payer.address, USDC(100));
  const log = await stack.chain.enrol({ payer, amount: USDC(10), period: MONTH_PERIOD, periods: 1 });
  const created = await onSubscriptionCreatedOnChain(deps, log);
  if (created.outcome === 'ignored') throw new Error(`enrolment ignored: ${created.reason}`);
  await stack.db
    .sql`update customers set email = ${email} where id = (select customer_id from subscriptions where id = ${created.subscriptionId})`;
  const worker = await stack.newWorker(taskQueue);
  await worker.runUntil(async () => {
    expect(await env.client.workflow.getHandle(created.subscriptionId).result()).toBe('completed');
  });
  const [charge] = await stack.db.sql<{ id: string; status: string }[]>`
    select id, status from subscription_charges where subscription_id = ${created.subscriptionId} and period_index = 0`;
  expect(charge!.status).toBe('succeeded');
  return charge!.id;
}

/** One batch of the event dispatcher, as its workflow runs it; queued receipts go out at once through the sink. */
const dispatchBatch = (taskQueue: string) =>
  createEventActivities({
    sql: stack.db.sql,
    temporal: env.client,
    taskQueue,
    emails: stack.sendingEmails(taskQueue),
    publicBaseUrl: PUBLIC_BASE_URL,
  }).dispatchEventBatch({ limit: 500 });

const receiptsOf = (objectId: string) => stack.db.sql`select kind from receipts where object_id = ${objectId}`;

describe('subscription charge receipts', () => {
  it('off by default: a charge gets no receipt', async () => {
    const email = `off-${randomBytes(3).toString('hex')}@example.com`;
    const taskQueue = `charge-receipts-off-${randomBytes(4).toString('hex')}`;
    const chargeId = await chargedSubscriber(email, taskQueue);
    await dispatchBatch(taskQueue);
    expect(await receiptsOf(chargeId)).toHaveLength(0);
    expect(stack.sink.messages({ to: email })).toHaveLength(0);
  }, 180_000);

  it('on: one receipt with the plan line, the amount and the page link; processed twice, still one; the page and its PDF', async () => {
    await setSwitch(true);
    const email = `on-${randomBytes(3).toString('hex')}@example.com`;
    const taskQueue = `charge-receipts-on-${randomBytes(4).toString('hex')}`;
    const chargeId = await chargedSubscriber(email, taskQueue);
    await dispatchBatch(taskQueue);
    const mail = await stack.sink.waitFor((m) => m.to.includes(email), 30_000);
    expect(mail.subject).toBe('Your receipt from Charge Receipts Co');
    expect(mail.text).toContain('Subscription: Pro monthly');
    expect(mail.text).toContain('Amount paid: 10.00 USDC');
    expect(mail.text).toContain('  Pro monthly: 10.00 USDC');
    const link = /Your receipt: (\S+)/.exec(mail.text)![1]!;
    expect(link.startsWith(`${PUBLIC_BASE_URL}/receipts/`)).toBe(true);

    // The dispatcher's batch claimed again (a crash after the send, before the mark): no second receipt.
    await stack.db.sql`update events set dispatched_at = null where type = 'subscription.charged' and data->'object'->>'id' = ${chargeId}`;
    await dispatchBatch(taskQueue);
    expect(await receiptsOf(chargeId)).toEqual([{ kind: 'subscription_charge' }]);
    await new Promise((r) => setTimeout(r, 500));
    expect(stack.sink.messages({ to: email })).toHaveLength(1);

    const path = new URL(link).pathname;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Charge Receipts Co');
    expect(page.body).toContain('Pro monthly');
    expect(page.body).toContain('10.00 USDC');
    expect(page.body).toContain(`href="${path}/receipt.pdf"`);
    const pdf = await t.app.inject({ method: 'GET', url: `${path}/receipt.pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  }, 180_000);
});
