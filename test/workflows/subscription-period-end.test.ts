// Cancel at period end and the trial rules (issue 40, item 3) through the subscription workflow on the
// time-skipping server, with its activities on a real database and every charge and cancel on anvil:
// a scheduled cancel happens when the next period comes due and not before, an undo keeps the
// subscription renewing, subscription.trial_will_end is recorded once three days before the trial
// ends, and each plan trialEndBehavior decides what a refused first charge after the trial does.
import { randomBytes } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createActivities } from '../../activities/index.js';
import type { EventDispatcher } from '../../src/events/dispatch.js';
import { addMerchantChainAddress, setSubscriptionGracePeriodHours } from '../../src/merchants/repo.js';
import type { TrialEndBehavior } from '../../src/subscription-plans/schemas.js';
import { createPlanService } from '../../src/subscription-plans/service.js';
import { onSubscriptionCreatedOnChain, type SubscriptionChainEventDeps } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { createSubscriptionService } from '../../src/subscriptions/service.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { cancelSubscriptionSignal, getStatusQuery } from '../../workflows/subscription.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { waitFor } from '../support/subscription-stack.js';
import { newPayer, startTestChain, type TestChain } from '../support/subscriptions.js';
import { workflowBundle } from '../support/temporal.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const DAY_S = 86_400n;
const HOUR_MS = 3_600_000;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));
// Events stay in the outbox (asserted there): see test/workflows/subscription.test.ts.
const outboxOnly: EventDispatcher = { dispatch: async () => {} };
/** The subscription workflow's shape with the trial_will_end notice (workflows/subscription.ts). */
const HISTORY_SHAPE = 'trial-will-end';

let db: TestDatabase;
let env: TestWorkflowEnvironment;
let chain: TestChain;
let merchant: SeededMerchant;
let bundle: { code: string };
let taskQueue = 'period-end-test';
let deps: SubscriptionChainEventDeps;
const scope = () => ({ merchantId: merchant.merchantId, livemode: false });

beforeAll(async () => {
  db = await createTestDatabase();
  [env, chain, bundle] = await Promise.all([
    TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
    }),
    startTestChain(db.sql),
    workflowBundle(),
  ]);
  merchant = await seedMerchant(db.sql);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  await setSubscriptionGracePeriodHours(db.sql, merchant.merchantId, 72);
  const plans = createPlanService({ sql: db.sql, events: outboxOnly });
  // Distinct amounts: an enrolment is matched to its plan by its terms.
  const plan = (amount: bigint, trialPeriodDays: number, trialEndBehavior?: TrialEndBehavior) =>
    plans.create(scope(), {
      name: `${amount} ${trialEndBehavior ?? 'default'}`,
      amount: amount.toString(),
      currency: 'USDC',
      interval: 'monthly',
      intervalCount: 1,
      trialPeriodDays,
      ...(trialEndBehavior ? { trialEndBehavior } : {}),
    });
  await plan(USDC(10), 0);
  await plan(USDC(20), 14);
  await plan(USDC(21), 14, 'cancel');
  await plan(USDC(22), 14, 'pause');
  await plan(USDC(23), 14);
  deps = { sql: db.sql, temporal: env.client, taskQueue, events: outboxOnly, modes: { test: chain.mode } };
}, 180_000);

beforeEach(() => {
  taskQueue = `period-end-${randomBytes(4).toString('hex')}`;
  deps = { ...deps, taskQueue };
});

afterAll(async () => {
  await env?.teardown();
  await chain?.stop();
  await db?.drop();
});

const newWorker = () =>
  Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: createActivities({ sql: db.sql, temporal: env.client, taskQueue, events: outboxOnly, subscriptionChain: chain.subscriptionChain }),
    shutdownGraceTime: '200ms',
    shutdownForceTime: '1s',
  });

const service = () => createSubscriptionService({ sql: db.sql, events: outboxOnly, temporal: env.client, taskQueue });

async function enrol(input: { amount: bigint; trialDays?: number; balance?: bigint }) {
  const nowMs = await env.currentTimeMs();
  await chain.warpTo(nowMs);
  const payer = newPayer();
  if (input.balance !== 0n) await chain.mint(payer.address, input.balance ?? USDC(1_000));
  const trialEnd = input.trialDays ? BigInt(Math.floor(nowMs / 1000)) + BigInt(input.trialDays) * DAY_S : undefined;
  const log = await chain.enrol({ payer, amount: input.amount, period: MONTH_PERIOD, periods: 0, trialEnd });
  const created = await onSubscriptionCreatedOnChain(deps, log);
  if (created.outcome === 'ignored') throw new Error(`enrolment ignored: ${created.reason}`);
  const id = created.subscriptionId;
  return { id, payer, log, trialEnd, handle: env.client.workflow.getHandle(id) };
}

const charges = (id: string) =>
  db.sql<{ periodIndex: number; status: string; failureCode: string | null }[]>`
    select period_index as "periodIndex", status, failure_code as "failureCode"
    from subscription_charges where subscription_id = ${id} order by period_index`;
const eventCount = async (id: string, type: string) =>
  (
    await db.sql<{ n: number }[]>`
      select count(*)::int as n from events
      where type = ${type} and (data->'object'->>'id' = ${id} or data->'subscription'->>'id' = ${id})`
  )[0]!.n;
const row = async (id: string) =>
  (
    await db.sql<{ status: string; cancelledBy: string | null; cancelReason: string | null; onChainCancelledAt: Date | null }[]>`
      select status, cancelled_by as "cancelledBy", cancel_reason as "cancelReason", on_chain_cancelled_at as "onChainCancelledAt"
      from subscriptions where id = ${id}`
  )[0]!;
const statusIs = (handle: WorkflowHandle, status: string) =>
  waitFor(
    () => handle.query(getStatusQuery),
    (s) => s.status === status,
    status,
  );

describe('cancel at period end', () => {
  it('cancels when the next period comes due, not before: nothing more charged, cancelled on chain with the reason', async () => {
    const { id, handle, log } = await enrol({ amount: USDC(10) });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await waitFor(
        () => charges(id),
        (rows) => rows.length === 1 && rows[0]!.status === 'succeeded',
        'period 0 charged',
      );
      await waitFor(
        () => row(id),
        (r) => r.status === 'active',
        'active',
      );
      const scheduled = await service().cancel(scope(), id, { atPeriodEnd: true, reason: 'customer asked', feedback: 'too_expensive' });
      expect(scheduled.cancelAtPeriodEnd).toBe(true);
      expect(scheduled.cancelAt).toBe(scheduled.nextChargeAt);
      // Most of the period passes: still active, nothing cancelled.
      await env.sleep('25 days');
      expect((await handle.query(getStatusQuery)).status).toBe('active');
      expect((await row(id)).status).toBe('active');
      expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(false);
      // The next period comes due: cancelled instead of charged.
      expect(await handle.result()).toBe('cancelled');
    });
    expect((await charges(id)).map((c) => [c.periodIndex, c.status])).toEqual([[0, 'succeeded']]);
    expect(await row(id)).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant', cancelReason: 'customer asked' });
    expect((await row(id)).onChainCancelledAt).toBeInstanceOf(Date);
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect(await chain.isCharged(log.args.id.toString(), 1)).toBe(false);
    expect(await eventCount(id, 'subscription.cancelled')).toBe(1);
    expect(await eventCount(id, 'subscription.updated')).toBe(1);
  });

  it('an undo before the period end keeps it renewing', async () => {
    const { id, handle, log } = await enrol({ amount: USDC(10) });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await waitFor(
        () => charges(id),
        (rows) => rows.length === 1 && rows[0]!.status === 'succeeded',
        'period 0 charged',
      );
      await service().cancel(scope(), id, { atPeriodEnd: true });
      await env.sleep('10 days');
      const kept = await service().uncancel(scope(), id);
      expect(kept).toMatchObject({ cancelAtPeriodEnd: false, cancelAt: null });
      await env.sleep('25 days');
      await waitFor(
        () => charges(id),
        (rows) => rows.length === 2 && rows[1]!.status === 'succeeded',
        'period 1 charged',
      );
      await handle.signal(cancelSubscriptionSignal, { by: 'merchant', reason: 'end of test' });
      expect(await handle.result()).toBe('cancelled');
    });
    expect(await chain.isCharged(log.args.id.toString(), 1)).toBe(true);
    expect(await eventCount(id, 'subscription.updated')).toBe(2);
  });

  it('set during the trial: cancelled at the trial end, never charged', async () => {
    const { id, handle } = await enrol({ amount: USDC(20), trialDays: 14 });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await statusIs(handle, 'trialing');
      const scheduled = await service().cancel(scope(), id, { atPeriodEnd: true });
      expect(scheduled.cancelAt).toBe(scheduled.trialEnd);
      expect(await handle.result()).toBe('cancelled');
    });
    expect(await charges(id)).toEqual([]);
    expect(await eventCount(id, 'subscription.cancelled')).toBe(1);
  });
});

describe('trial rules', () => {
  it('subscription.trial_will_end is recorded once, three days before the trial ends', async () => {
    const { id, handle } = await enrol({ amount: USDC(20), trialDays: 14 });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await statusIs(handle, 'trialing');
      await env.sleep((10 * 24 + 22) * HOUR_MS);
      expect(await eventCount(id, 'subscription.trial_will_end')).toBe(0);
      await env.sleep(4 * HOUR_MS);
      await waitFor(
        () => eventCount(id, 'subscription.trial_will_end'),
        (n) => n === 1,
        'trial_will_end',
      );
      expect((await handle.query(getStatusQuery)).status).toBe('trialing');
      await env.sleep('4 days');
      await statusIs(handle, 'active');
      await handle.signal(cancelSubscriptionSignal, { by: 'merchant', reason: 'end of test' });
      expect(await handle.result()).toBe('cancelled');
    });
    expect(await eventCount(id, 'subscription.trial_will_end')).toBe(1);
    const [event] = await db.sql<{ data: { object: { status: string; trialEnd: string } } }[]>`
      select data from events where type = 'subscription.trial_will_end' and data->'object'->>'id' = ${id}`;
    expect(event!.data.object.status).toBe('trialing');
    await recordHistory(handle, 'subscription-trial-will-end', HISTORY_SHAPE);
  });

  it('trialEndBehavior cancel: the refused first charge cancels the subscription at once, on chain too', async () => {
    const { id, handle, log } = await enrol({ amount: USDC(21), trialDays: 14, balance: 0n });
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('cancelled');
    expect(await charges(id)).toEqual([{ periodIndex: 0, status: 'failed', failureCode: 'insufficient_funds' }]);
    expect(await row(id)).toMatchObject({ status: 'cancelled', cancelledBy: 'system' });
    expect((await row(id)).cancelReason).toMatch(/trial ended/);
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect(await eventCount(id, 'subscription.charge_failed')).toBe(1);
    expect(await eventCount(id, 'subscription.cancelled')).toBe(1);
    expect(await eventCount(id, 'subscription.lapsed')).toBe(0);
  });

  it('trialEndBehavior pause: the refused first charge pauses it; resumed and funded, the next period is charged', async () => {
    const { id, handle, payer } = await enrol({ amount: USDC(22), trialDays: 14, balance: 0n });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await statusIs(handle, 'trialing');
      await env.sleep('15 days');
      await statusIs(handle, 'paused');
      expect((await row(id)).status).toBe('paused');
      expect(await charges(id)).toEqual([{ periodIndex: 0, status: 'failed', failureCode: 'insufficient_funds' }]);
      expect(await eventCount(id, 'subscription.charge_failed')).toBe(1);
      await chain.mint(payer.address, USDC(100));
      expect((await service().resume(scope(), id)).status).toBe('active');
      await env.sleep('31 days');
      await waitFor(
        () => charges(id),
        (rows) => rows.length === 2 && rows[1]!.status === 'succeeded',
        'period 1 charged',
      );
      await handle.signal(cancelSubscriptionSignal, { by: 'merchant', reason: 'end of test' });
      expect(await handle.result()).toBe('cancelled');
    });
    expect((await charges(id)).map((c) => [c.periodIndex, c.status])).toEqual([
      [0, 'failed'],
      [1, 'succeeded'],
    ]);
  });

  it('trialEndBehavior dunning (the default): the refused first charge goes at_risk and is retried', async () => {
    const { id, handle } = await enrol({ amount: USDC(23), trialDays: 14, balance: 0n });
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('lapsed');
    expect(await charges(id)).toEqual([{ periodIndex: 0, status: 'failed', failureCode: 'insufficient_funds' }]);
    expect(await eventCount(id, 'subscription.charge_failed')).toBe(4);
    expect(await eventCount(id, 'subscription.cancelled')).toBe(0);
  });
});
