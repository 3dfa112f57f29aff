// Cancel at period end and the trial rules (issue 40, item 3) through the subscription workflow on the
// time-skipping server, with its activities on a real database and every charge and cancel on anvil:
// a scheduled cancel happens when the next period comes due and not before, an undo keeps the
// subscription renewing, subscription.trial_will_end is recorded once three days before the trial
// ends, and each plan trialEndBehavior decides what a refused first charge after the trial does.
import { randomBytes } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setSubscriptionGracePeriodHours } from '../../src/merchants/repo.js';
import type { TrialEndBehavior } from '../../src/subscription-plans/schemas.js';
import { createPlanService } from '../../src/subscription-plans/service.js';
import { onSubscriptionCreatedOnChain } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { createSubscriptionService } from '../../src/subscriptions/service.js';
import { cancelSubscriptionSignal, getStatusQuery } from '../../workflows/subscription.js';
import { recordHistory } from '../support/histories.js';
import { outboxOnly, startSubscriptionStack, waitFor, type SubscriptionStack } from '../support/subscription-stack.js';
import { alignClocks, newPayer } from '../support/subscriptions.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const DAY_S = 86_400n;
const HOUR_MS = 3_600_000;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));
/** The subscription workflow's shape with the trial_will_end notice (workflows/subscription.ts). */
const HISTORY_SHAPE = 'trial-will-end';

let stack: SubscriptionStack;
let taskQueue = 'period-end-test';
const scope = () => ({ merchantId: stack.merchant.merchantId, livemode: false });

beforeAll(async () => {
  // The stack's plan is the monthly one without a trial (10 USDC).
  stack = await startSubscriptionStack({ merchantName: 'Period end merchant', plan: { name: 'Monthly', amount: USDC(10) } });
  await setSubscriptionGracePeriodHours(stack.db.sql, stack.merchant.merchantId, 72);
  const plans = createPlanService({ sql: stack.db.sql, events: outboxOnly });
  // Distinct amounts: an enrolment is matched to its plan by its terms.
  const trialPlan = (amount: bigint, trialEndBehavior?: TrialEndBehavior) =>
    plans.create(scope(), {
      name: `Trial ${trialEndBehavior ?? 'default'}`,
      amount: amount.toString(),
      currency: 'USDC',
      interval: 'monthly',
      intervalCount: 1,
      trialPeriodDays: 14,
      ...(trialEndBehavior ? { trialEndBehavior } : {}),
    });
  await trialPlan(USDC(20));
  await trialPlan(USDC(21), 'cancel');
  await trialPlan(USDC(22), 'pause');
  await trialPlan(USDC(23));
}, 180_000);

// A task queue per test, so a worker left draining by one test never takes another's tasks.
beforeEach(() => {
  taskQueue = `period-end-${randomBytes(4).toString('hex')}`;
});

afterAll(async () => {
  await stack?.stop();
});

const newWorker = () => stack.newWorker(taskQueue);
const service = () => createSubscriptionService({ sql: stack.db.sql, events: outboxOnly, temporal: stack.env.client, taskQueue });

async function enrol(input: { amount: bigint; trialDays?: number; balance?: bigint }) {
  const nowMs = await alignClocks(stack.env, stack.chain);
  const payer = newPayer();
  if (input.balance !== 0n) await stack.chain.mint(payer.address, input.balance ?? USDC(1_000));
  const trialEnd = input.trialDays ? BigInt(Math.floor(nowMs / 1000)) + BigInt(input.trialDays) * DAY_S : undefined;
  const log = await stack.chain.enrol({ payer, amount: input.amount, period: MONTH_PERIOD, periods: 0, trialEnd });
  const created = await onSubscriptionCreatedOnChain(stack.chainEventDeps(taskQueue), log);
  if (created.outcome === 'ignored') throw new Error(`enrolment ignored: ${created.reason}`);
  const id = created.subscriptionId;
  return { id, payer, log, trialEnd, handle: stack.env.client.workflow.getHandle(id) };
}

const charges = (id: string) =>
  stack.db.sql<{ periodIndex: number; status: string; failureCode: string | null }[]>`
    select period_index as "periodIndex", status, failure_code as "failureCode"
    from subscription_charges where subscription_id = ${id} order by period_index`;
const eventCount = async (id: string, type: string) =>
  (
    await stack.db.sql<{ n: number }[]>`
      select count(*)::int as n from events
      where type = ${type} and (data->'object'->>'id' = ${id} or data->'subscription'->>'id' = ${id})`
  )[0]!.n;
const row = async (id: string) =>
  (
    await stack.db.sql<{ status: string; cancelledBy: string | null; cancelReason: string | null; onChainCancelledAt: Date | null }[]>`
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
      await stack.env.sleep('25 days');
      expect((await handle.query(getStatusQuery)).status).toBe('active');
      expect((await row(id)).status).toBe('active');
      expect(await stack.chain.isCancelledOnChain(log.args.id.toString())).toBe(false);
      // The next period comes due: cancelled instead of charged.
      expect(await handle.result()).toBe('cancelled');
    });
    expect((await charges(id)).map((c) => [c.periodIndex, c.status])).toEqual([[0, 'succeeded']]);
    expect(await row(id)).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant', cancelReason: 'customer asked' });
    expect((await row(id)).onChainCancelledAt).toBeInstanceOf(Date);
    expect(await stack.chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect(await stack.chain.isCharged(log.args.id.toString(), 1)).toBe(false);
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
      await stack.env.sleep('10 days');
      const kept = await service().uncancel(scope(), id);
      expect(kept).toMatchObject({ cancelAtPeriodEnd: false, cancelAt: null });
      await stack.env.sleep('25 days');
      await waitFor(
        () => charges(id),
        (rows) => rows.length === 2 && rows[1]!.status === 'succeeded',
        'period 1 charged',
      );
      await handle.signal(cancelSubscriptionSignal, { by: 'merchant', reason: 'end of test' });
      expect(await handle.result()).toBe('cancelled');
    });
    expect(await stack.chain.isCharged(log.args.id.toString(), 1)).toBe(true);
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
      await stack.env.sleep((10 * 24 + 22) * HOUR_MS);
      expect(await eventCount(id, 'subscription.trial_will_end')).toBe(0);
      await stack.env.sleep(4 * HOUR_MS);
      await waitFor(
        () => eventCount(id, 'subscription.trial_will_end'),
        (n) => n === 1,
        'trial_will_end',
      );
      expect((await handle.query(getStatusQuery)).status).toBe('trialing');
      await stack.env.sleep('4 days');
      await statusIs(handle, 'active');
      await handle.signal(cancelSubscriptionSignal, { by: 'merchant', reason: 'end of test' });
      expect(await handle.result()).toBe('cancelled');
    });
    expect(await eventCount(id, 'subscription.trial_will_end')).toBe(1);
    const [event] = await stack.db.sql<{ data: { object: { status: string; trialEnd: string } } }[]>`
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
    expect(await stack.chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect(await eventCount(id, 'subscription.charge_failed')).toBe(1);
    expect(await eventCount(id, 'subscription.cancelled')).toBe(1);
    expect(await eventCount(id, 'subscription.lapsed')).toBe(0);
  });

  it('trialEndBehavior pause: the refused first charge pauses it; resumed and funded, the next period is charged', async () => {
    const { id, handle, payer } = await enrol({ amount: USDC(22), trialDays: 14, balance: 0n });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await statusIs(handle, 'trialing');
      await stack.env.sleep('15 days');
      await statusIs(handle, 'paused');
      expect((await row(id)).status).toBe('paused');
      expect(await charges(id)).toEqual([{ periodIndex: 0, status: 'failed', failureCode: 'insufficient_funds' }]);
      expect(await eventCount(id, 'subscription.charge_failed')).toBe(1);
      await stack.chain.mint(payer.address, USDC(100));
      expect((await service().resume(scope(), id)).status).toBe('active');
      await stack.env.sleep('31 days');
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
