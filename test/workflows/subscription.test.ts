// The subscription workflow on the time-skipping server, with its activities
// on a real database and a real anvil chain: enrolment goes through the
// contract, the SubscriptionCreated log through the indexer entry point, and
// every charge is an on-chain transaction.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { InvalidStateError } from '../../src/errors.js';
import type { EventDispatcher } from '../../src/events/dispatch.js';
import { addMerchantChainAddress, setSubscriptionGracePeriodHours } from '../../src/merchants/repo.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createPlanService } from '../../src/subscription-plans/service.js';
import {
  onSubscriptionCreatedOnChain,
  onTransferToSubscriber,
  type SubscriptionChainEventDeps,
} from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSeconds, onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { createViemSubscriptionChain, type SubscriptionChain } from '../../src/subscriptions/chain.js';
import { CHARGE_MANY_SELECTOR } from '../../src/subscriptions/charge-batch.js';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { createSubscriptionService } from '../../src/subscriptions/service.js';
import { createPlanChangeService } from '../../src/subscription-plan-changes/service.js';
import { periodStart } from '../../src/subscriptions/periods.js';
import { cancelSubscriptionSignal, getStatusQuery, type SubscriptionWorkflowState } from '../../workflows/subscription.js';
import { onChainCancelWorkflowId } from '../../workflows/subscription-cancel.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { recordHistory as recordShape } from '../support/histories.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { waitFor } from '../support/subscription-stack.js';
import { alignClocks, newPayer, startTestChain, type TestChain } from '../support/subscriptions.js';
import { workflowBundle } from '../support/temporal.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));
let taskQueue = 'subscriptions-test';
// Events stay in the outbox (asserted there): a dispatch workflow left open on a finished test's
// queue would keep the time-skipping server from skipping. Dispatch itself is tested elsewhere.
const outboxOnly: EventDispatcher = { dispatch: async () => {} };

let db: TestDatabase;
let env: TestWorkflowEnvironment;
let chain: TestChain;
let merchant: SeededMerchant;
let bundle: { code: string };
let deps: SubscriptionChainEventDeps;
let plans: { monthly: string; trial: string; calendar: string; risky: string };

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
  const planService = createPlanService({ sql: db.sql, events: { dispatch: async () => {} } });
  const scope = { merchantId: merchant.merchantId, livemode: false };
  const plan = (name: string, amount: bigint, trialPeriodDays = 0) =>
    planService
      .create(scope, { name, amount: amount.toString(), currency: 'USDC', interval: 'monthly', intervalCount: 1, trialPeriodDays })
      .then((p) => p.id);
  plans = {
    monthly: await plan('Monthly', USDC(10)),
    trial: await plan('Trial', USDC(20), 14),
    calendar: await plan('Calendar', USDC(30)),
    risky: await plan('Risky', USDC(40)),
  };
  deps = {
    sql: db.sql,
    temporal: env.client,
    taskQueue,
    events: outboxOnly,
    modes: { test: chain.mode },
  };
}, 180_000);

// A task queue per test, so a worker left draining by one test never takes another's tasks.
beforeEach(() => {
  taskQueue = `subscriptions-${randomBytes(4).toString('hex')}`;
  deps = { ...deps, taskQueue };
});

afterAll(async () => {
  await env?.teardown();
  await chain?.stop();
  await db?.drop();
});

async function newWorker(subscriptionChain: SubscriptionChain = chain.subscriptionChain): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: createActivities({ sql: db.sql, temporal: env.client, taskQueue, events: outboxOnly, subscriptionChain }),
    shutdownGraceTime: '200ms',
    shutdownForceTime: '1s',
  });
}

/** Brings the chain's clock and the workflow clock together before enrolling. */
async function enrol(input: { amount: bigint; periods: number; trialEnd?: bigint; balance?: bigint; workflowTaskTimeout?: string }) {
  await alignClocks(env, chain);
  const payer = newPayer();
  if (input.balance !== 0n) await chain.mint(payer.address, input.balance ?? USDC(100_000));
  const log = await chain.enrol({ payer, amount: input.amount, period: MONTH_PERIOD, periods: input.periods, trialEnd: input.trialEnd });
  const startDeps = input.workflowTaskTimeout ? { ...deps, workflowTaskTimeout: input.workflowTaskTimeout } : deps;
  const created = await onSubscriptionCreatedOnChain(startDeps, log);
  if (created.outcome === 'ignored') throw new Error(`enrolment ignored: ${created.reason}`);
  return { payer, log, subscriptionId: created.subscriptionId, handle: env.client.workflow.getHandle(created.subscriptionId) };
}

const charges = (subscriptionId: string) =>
  db.sql<{ periodIndex: number; periodStart: Date; status: string; attempts: number; txHash: string | null; failureCode: string | null }[]>`
    select period_index as "periodIndex", period_start as "periodStart", status, attempts, tx_hash as "txHash", failure_code as "failureCode"
    from subscription_charges where subscription_id = ${subscriptionId} order by period_index`;
const eventCount = async (subscriptionId: string, type: string) =>
  (
    await db.sql<{ n: number }[]>`
    select count(*)::int as n from events
    where type = ${type} and (data->'object'->>'id' = ${subscriptionId} or data->'subscription'->>'id' = ${subscriptionId})`
  )[0]!.n;
const subscriptionRow = async (id: string) =>
  (
    await db.sql<{ status: string; onChainCancelledAt: Date | null; currentPeriodIndex: number | null }[]>`
    select status, on_chain_cancelled_at as "onChainCancelledAt", current_period_index as "currentPeriodIndex" from subscriptions where id = ${id}`
  )[0]!;

/**
 * The workflow's current shape, carried in the names of the histories recorded here: both patches of issue 40
 * ('plan-changes' and 'trial-will-end-notice'), merged.
 */
const HISTORY_SHAPE = 'plan-changes-trial-will-end';
/** The shape of subscriptionOnChainCancelWorkflow's recorded histories. */
const ON_CHAIN_CANCEL_SHAPE = 'base';
const recordHistory = (handle: { fetchHistory: () => Promise<unknown> }, name: string) => recordShape(handle, name, HISTORY_SHAPE);

describe('subscription workflow', () => {
  it('charges 24 monthly periods on-chain, continuing as new, then completes after the last authorised period', async () => {
    const { subscriptionId, handle, payer, log } = await enrol({ amount: USDC(10), periods: 24 });
    const before = await chain.balanceOf(payer.address);
    const firstRunId = (await handle.describe()).runId;
    const worker = await newWorker();
    const result = await worker.runUntil(handle.result());
    expect(result).toBe('completed');

    const rows = await charges(subscriptionId);
    expect(rows).toHaveLength(24);
    expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1 && /^0x[0-9a-f]{64}$/.test(r.txHash!))).toBe(true);
    expect(new Set(rows.map((r) => r.txHash)).size).toBe(24);
    const onChainId = log.args.id.toString();
    for (let i = 0; i < 24; i++) expect(await chain.isCharged(onChainId, i)).toBe(true);
    expect(await chain.isCharged(onChainId, 24)).toBe(false);
    expect(before - (await chain.balanceOf(payer.address))).toBe(USDC(240));
    expect(await eventCount(subscriptionId, 'subscription.charged')).toBe(24);
    expect(await eventCount(subscriptionId, 'subscription.created')).toBe(1);
    expect((await subscriptionRow(subscriptionId)).status).toBe('completed');
    const described = await handle.describe();
    expect(described.runId).not.toBe(firstRunId); // continued as new at least once
    // The continued run keeps the start's 30 s task timeout (the server's default is 10 s).
    expect(Number(described.raw.executionConfig?.defaultWorkflowTaskTimeout?.seconds)).toBe(30);
  });

  it('a second SubscriptionCreated for the same on-chain id is a no-op', async () => {
    const { log, subscriptionId, handle, payer } = await enrol({ amount: USDC(10), periods: 1 });
    // The start carries the memo of every business run and nothing else (no plan: it is in the input and the API).
    expect((await handle.describe()).memo).toEqual({
      merchantId: merchant.merchantId,
      livemode: false,
      object: 'subscription',
      id: subscriptionId,
      status: 'active',
      customerWallet: payer.address,
    });
    const again = await onSubscriptionCreatedOnChain(deps, log);
    expect(again).toEqual({ outcome: 'existing', subscriptionId, workflowStarted: false });
    expect(await eventCount(subscriptionId, 'subscription.created')).toBe(1);
    const worker = await newWorker();
    expect(await worker.runUntil(env.client.workflow.getHandle(subscriptionId).result())).toBe('completed');
  });

  it("ignores enrolments it cannot charge or attribute, and honours the relay's plan hint", async () => {
    const payer = newPayer();
    await chain.mint(payer.address, USDC(100));
    const log = await chain.enrol({ payer, amount: USDC(10), period: MONTH_PERIOD, periods: 1 });
    const count = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from subscriptions`)[0]!.n;
    const before = await count();
    const outsider = '0x000000000000000000000000000000000000dEaD' as const;
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, address: outsider })).toEqual({
      outcome: 'ignored',
      reason: 'unknown_contract',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, args: { ...log.args, operator: outsider } })).toEqual({
      outcome: 'ignored',
      reason: 'foreign_operator',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, args: { ...log.args, token: outsider } })).toEqual({
      outcome: 'ignored',
      reason: 'unknown_token',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, args: { ...log.args, merchant: outsider } })).toEqual({
      outcome: 'ignored',
      reason: 'unknown_merchant',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, args: { ...log.args, amount: USDC(7) } })).toEqual({
      outcome: 'ignored',
      reason: 'no_matching_plan',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, args: { ...log.args, period: 30n * 86_400n } })).toEqual({
      outcome: 'ignored',
      reason: 'no_matching_plan',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, planId: plans.trial })).toEqual({
      outcome: 'ignored',
      reason: 'no_matching_plan',
    });
    expect(await count()).toBe(before);

    const created = await onSubscriptionCreatedOnChain(deps, { ...log, planId: plans.monthly, customerEmail: 'payer@example.com' });
    expect(created).toMatchObject({ outcome: 'created', workflowStarted: true });
    const [row] =
      await db.sql`select s.plan_id, s.status, c.email, c.wallet_address from subscriptions s join customers c on c.id = s.customer_id where s.id = ${(created as { subscriptionId: string }).subscriptionId}`;
    expect(row).toMatchObject({
      plan_id: plans.monthly,
      status: 'active',
      email: 'payer@example.com',
      wallet_address: payer.address.toLowerCase(),
    });
    const worker = await newWorker();
    expect(await worker.runUntil(env.client.workflow.getHandle((created as { subscriptionId: string }).subscriptionId).result())).toBe(
      'completed',
    );
  });

  it('ignores, and logs with its reason, an enrolment whose trial is not its plan\'s ("trial forever" naming our operator)', async () => {
    await alignClocks(env, chain);
    const payer = newPayer();
    await chain.mint(payer.address, USDC(100));
    const count = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from subscriptions`)[0]!.n;
    const before = await count();
    const warnings: { details: object; message: string }[] = [];
    const logged: SubscriptionChainEventDeps = { ...deps, log: { warn: (details, message) => warnings.push({ details, message }) } };
    const year2100 = 4_102_444_800n;
    // The monthly plan has no trial: period 0 in 2100 is a trial it never offered.
    const trialForever = await chain.enrol({ payer, amount: USDC(10), period: MONTH_PERIOD, periods: 0, trialEnd: year2100 });
    expect(await onSubscriptionCreatedOnChain(logged, trialForever)).toEqual({ outcome: 'ignored', reason: 'trial_mismatch' });
    expect(warnings).toEqual([
      {
        message: 'enrolment ignored: trial_mismatch',
        details: expect.objectContaining({
          reason: 'trial_mismatch',
          onChainId: trialForever.args.id.toString(),
          firstPeriodStart: year2100.toString(),
        }),
      },
    ]);
    // The trial plan (20 USDC, 14 days): 60 days is not its trial, and neither is none.
    const now = BigInt(Math.floor((await env.currentTimeMs()) / 1000));
    const longTrial = await chain.enrol({ payer, amount: USDC(20), period: MONTH_PERIOD, periods: 0, trialEnd: now + 60n * 86_400n });
    expect(await onSubscriptionCreatedOnChain(logged, longTrial)).toEqual({ outcome: 'ignored', reason: 'trial_mismatch' });
    const noTrial = await chain.enrol({ payer, amount: USDC(20), period: MONTH_PERIOD, periods: 0 });
    expect(await onSubscriptionCreatedOnChain(logged, noTrial)).toEqual({ outcome: 'ignored', reason: 'trial_mismatch' });
    expect(warnings).toHaveLength(3);
    expect(await count()).toBe(before);
  });

  it('ignores, and logs, a v2 enrolment whose charge window is not the one the platform signs for its plan (e.g. 1 hour)', async () => {
    await alignClocks(env, chain);
    const payer = newPayer();
    await chain.mint(payer.address, USDC(100));
    const count = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from subscriptions`)[0]!.n;
    const before = await count();
    const warnings: { details: object; message: string }[] = [];
    const logged: SubscriptionChainEventDeps = { ...deps, log: { warn: (details, message) => warnings.push({ details, message }) } };
    const shortWindow = await chain.enrol({ payer, amount: USDC(10), period: MONTH_PERIOD, periods: 0, chargeWindow: 3600n });
    expect(shortWindow.chargeWindow).toBe(3600n);
    expect(await onSubscriptionCreatedOnChain(logged, shortWindow)).toEqual({ outcome: 'ignored', reason: 'charge_window_mismatch' });
    expect(warnings[0]).toEqual({
      message: 'enrolment ignored: charge_window_mismatch',
      details: expect.objectContaining({
        reason: 'charge_window_mismatch',
        chargeWindow: '3600',
        onChainId: shortWindow.args.id.toString(),
      }),
    });
    // v1's 28-day period is not a plan's period on v2 (each manager is matched with its own).
    const v1Period = await chain.enrol({ payer, amount: USDC(10), period: BigInt(onChainPeriodSeconds('monthly', 1)), periods: 0 });
    expect(await onSubscriptionCreatedOnChain(logged, v1Period)).toEqual({ outcome: 'ignored', reason: 'no_matching_plan' });
    expect(await count()).toBe(before);
  });

  it('stays trialing until the trial ends, then charges period 0 at the trial end and is active', async () => {
    const trialEnd = BigInt(Math.floor((await env.currentTimeMs()) / 1000)) + 14n * 86_400n;
    const { subscriptionId, handle } = await enrol({ amount: USDC(20), periods: 0, trialEnd });
    expect((await subscriptionRow(subscriptionId)).status).toBe('trialing');
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const trialing = await waitFor(
        () => handle.query(getStatusQuery),
        (s) => s.nextChargeAt !== null,
        'first query',
      );
      expect(trialing.status).toBe('trialing');
      expect(trialing.nextChargeAt).toBe(new Date(Number(trialEnd) * 1000).toISOString());
      expect(await charges(subscriptionId)).toHaveLength(0);

      await env.sleep('15 days');
      const active = await waitFor(
        () => handle.query(getStatusQuery),
        (s) => s.status === 'active',
        'active',
      );
      expect(active.nextPeriodIndex).toBe(1);
      const [charge] = await charges(subscriptionId);
      expect(charge).toMatchObject({ periodIndex: 0, status: 'succeeded' });
      expect(charge!.periodStart.toISOString()).toBe(new Date(Number(trialEnd) * 1000).toISOString());
      expect((await subscriptionRow(subscriptionId)).status).toBe('active');

      await handle.signal(cancelSubscriptionSignal, { by: 'merchant', reason: 'end of test' });
      expect(await handle.result()).toBe('cancelled');
    });
    // Past the trial's end: the shape before the trial_will_end notice replays through it.
    await recordHistory(handle, 'subscription-trial-charged');
  });

  it('a refused charge goes at_risk, and a top-up brings it back to active', async () => {
    const { subscriptionId, handle, payer } = await enrol({ amount: USDC(40), periods: 2, balance: 0n });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const atRisk = await waitFor(
        () => handle.query(getStatusQuery),
        (s) => s.status === 'at_risk',
        'at_risk',
      );
      expect(atRisk.lastFailure).toBe('insufficient_funds');
      expect(await charges(subscriptionId)).toMatchObject([
        { periodIndex: 0, status: 'failed', failureCode: 'insufficient_funds', attempts: 1 },
      ]);
      expect((await subscriptionRow(subscriptionId)).status).toBe('at_risk');
      expect(await eventCount(subscriptionId, 'subscription.charge_failed')).toBe(1);

      await chain.mint(payer.address, USDC(100));
      expect(await onTransferToSubscriber(deps, { livemode: false, to: payer.address })).toEqual({ signalled: [subscriptionId] });
      await waitFor(
        () => handle.query(getStatusQuery),
        (s) => s.status === 'active',
        'active after top-up',
      );
      expect(await charges(subscriptionId)).toMatchObject([{ periodIndex: 0, status: 'succeeded', attempts: 2 }]);
      expect((await subscriptionRow(subscriptionId)).status).toBe('active');

      expect(await handle.result()).toBe('completed');
    });
    expect(await charges(subscriptionId)).toHaveLength(2);
    expect(await eventCount(subscriptionId, 'subscription.charged')).toBe(2);
    await recordHistory(handle, 'subscription-at-risk-top-up');
  });

  it('a refused charge that is never recovered lapses when the grace window is exceeded', async () => {
    await setSubscriptionGracePeriodHours(db.sql, merchant.merchantId, 72);
    const { subscriptionId, handle, log } = await enrol({ amount: USDC(40), periods: 0, balance: 0n });
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('lapsed');
    // Attempts at 0 h, 24 h, 48 h and the last one at the 72 h deadline.
    expect(await charges(subscriptionId)).toMatchObject([
      { periodIndex: 0, status: 'failed', attempts: 4, failureCode: 'insufficient_funds' },
    ]);
    expect(await eventCount(subscriptionId, 'subscription.charge_failed')).toBe(4);
    expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(1);
    await recordHistory(handle, 'subscription-lapsed');
    const row = await subscriptionRow(subscriptionId);
    expect(row.status).toBe('lapsed');
    expect(row.onChainCancelledAt).toBeInstanceOf(Date);
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
  });

  it("a v2 merchant grace longer than the period's charge window ends inside the window: retries stop before the contract would refuse them", async () => {
    await setSubscriptionGracePeriodHours(db.sql, merchant.merchantId, 8760);
    try {
      const { subscriptionId, handle } = await enrol({ amount: USDC(40), periods: 0, balance: 0n });
      const worker = await newWorker();
      expect(await worker.runUntil(handle.result())).toBe('lapsed');
      // The window is 3,009,600 s (34.8 days): daily retries until 15 minutes before it closes, about
      // 35 attempts, each refused for funds. Unclamped, retries run on for a year and every one after
      // the window is refused by the contract (charge_window_closed).
      const [charge] = await charges(subscriptionId);
      expect(charge).toMatchObject({ periodIndex: 0, status: 'failed', failureCode: 'insufficient_funds' });
      expect(charge!.attempts).toBeGreaterThanOrEqual(30);
      expect(charge!.attempts).toBeLessThanOrEqual(36);
    } finally {
      await setSubscriptionGracePeriodHours(db.sql, merchant.merchantId, 72);
    }
  });

  it('a charge USDC refuses because the subscriber is blacklisted: payer_blacklisted, lapsed at once, cancelled on-chain, never retried', async () => {
    const { subscriptionId, handle, payer, log } = await enrol({ amount: USDC(40), periods: 3 });
    await chain.issuer('blacklist', payer.address);
    try {
      const worker = await newWorker();
      expect(await worker.runUntil(handle.result())).toBe('lapsed');
    } finally {
      await chain.issuer('unBlacklist', payer.address);
    }
    // One attempt: no dunning for an account the issuer blocked.
    expect(await charges(subscriptionId)).toMatchObject([
      { periodIndex: 0, status: 'failed', attempts: 1, failureCode: 'payer_blacklisted', txHash: null },
    ]);
    expect(await eventCount(subscriptionId, 'subscription.charge_failed')).toBe(1);
    expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(1);
    expect(await eventCount(subscriptionId, 'subscription.charged')).toBe(0);
    const [failed] = await db.sql<{ data: { object: { failureCode: string; failureReason: string } } }[]>`
      select data from events where type = 'subscription.charge_failed' and data->'subscription'->>'id' = ${subscriptionId}`;
    expect(failed!.data.object).toMatchObject({ failureCode: 'payer_blacklisted' });
    expect(failed!.data.object.failureReason).toMatch(/blocked by the USDC issuer/);
    const row = await subscriptionRow(subscriptionId);
    expect(row.status).toBe('lapsed');
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect(await chain.isCharged(log.args.id.toString(), 0)).toBe(false);
  });

  it('a charge USDC refuses because the token is paused: token_paused, at_risk, retried later and charged once the issuer resumes', async () => {
    const { subscriptionId, handle, payer, log } = await enrol({ amount: USDC(40), periods: 1 });
    const before = await chain.balanceOf(payer.address);
    await chain.issuer('pause');
    const worker = await newWorker();
    await worker.runUntil(async () => {
      try {
        // Time does not skip while the test only queries: the retry waits for the unpause below.
        const atRisk = await waitFor(
          () => handle.query(getStatusQuery),
          (s) => s.status === 'at_risk',
          'at_risk',
        );
        expect(atRisk.lastFailure).toBe('token_paused');
        expect(await charges(subscriptionId)).toMatchObject([
          { periodIndex: 0, status: 'failed', failureCode: 'token_paused', attempts: 1 },
        ]);
        expect((await subscriptionRow(subscriptionId)).status).toBe('at_risk');
        expect(await eventCount(subscriptionId, 'subscription.charge_failed')).toBe(1);
        expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(0);
      } finally {
        await chain.issuer('unpause');
      }
      // The retry interval passes (time skips while waiting for the result): charged, then completed.
      expect(await handle.result()).toBe('completed');
    });
    expect(await charges(subscriptionId)).toMatchObject([{ periodIndex: 0, status: 'succeeded', attempts: 2 }]);
    expect(await chain.isCharged(log.args.id.toString(), 0)).toBe(true);
    expect(await chain.balanceOf(payer.address)).toBe(before - USDC(40));
    expect(await eventCount(subscriptionId, 'subscription.charge_failed')).toBe(1);
    expect(await eventCount(subscriptionId, 'subscription.charged')).toBe(1);
    expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(0);
  });

  it('a charge that fails for good (a corrupt on-chain id) goes at_risk and lapses after the grace window, never retried forever', async () => {
    await setSubscriptionGracePeriodHours(db.sql, merchant.merchantId, 72);
    const { subscriptionId, handle } = await enrol({ amount: USDC(40), periods: 0 });
    // A corrupt row: the chargeOnChain activity refuses a negative id with a non-retryable InvalidAddress failure.
    await db.sql`update subscriptions set on_chain_id = -1 where id = ${subscriptionId}`;
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('lapsed');
    expect(await charges(subscriptionId)).toMatchObject([{ periodIndex: 0, status: 'failed', attempts: 4, failureCode: 'charge_refused' }]);
    expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(1);
    expect((await subscriptionRow(subscriptionId)).status).toBe('lapsed');
  });

  it('cancels during the trial: recorded first, then cancelled on-chain, nothing charged; a second cancel is refused', async () => {
    const trialEnd = BigInt(Math.floor((await env.currentTimeMs()) / 1000)) + 14n * 86_400n;
    const { subscriptionId, handle, log } = await enrol({ amount: USDC(20), periods: 0, trialEnd });
    const service = createSubscriptionService({ sql: db.sql, events: deps.events, temporal: env.client });
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await waitFor(
        () => handle.query(getStatusQuery),
        (s: SubscriptionWorkflowState) => s.status === 'trialing' && s.nextChargeAt !== null,
        'trialing',
      );
      const cancelled = await service.cancel(scope, subscriptionId, { reason: 'customer asked' });
      expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: 'customer asked', cancelledBy: 'merchant' });
      await expect(service.cancel(scope, subscriptionId, {})).rejects.toBeInstanceOf(InvalidStateError);
      // A duplicate signal (e.g. the customer's on-chain cancel seen later) changes nothing either.
      await handle.signal(cancelSubscriptionSignal, { by: 'subscriber' });
      expect(await handle.result()).toBe('cancelled');
    });
    expect(await charges(subscriptionId)).toHaveLength(0);
    expect(await eventCount(subscriptionId, 'subscription.cancelled')).toBe(1);
    await recordHistory(handle, 'subscription-cancel-in-trial');
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect((await subscriptionRow(subscriptionId)).onChainCancelledAt).toBeInstanceOf(Date);
  });

  it('cancels a completed subscription: recorded, then cancelled on-chain by its own small workflow', async () => {
    const { subscriptionId, handle, log } = await enrol({ amount: USDC(10), periods: 1 });
    const service = createSubscriptionService({ sql: db.sql, events: deps.events, temporal: env.client, taskQueue });
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const worker = await newWorker();
    await worker.runUntil(async () => {
      expect(await handle.result()).toBe('completed');
      expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(false);
      const cancelled = await service.cancel(scope, subscriptionId, { reason: 'account closed' });
      expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: 'account closed', cancelledBy: 'merchant' });
      const onChainCancel = env.client.workflow.getHandle(onChainCancelWorkflowId(subscriptionId));
      expect(await onChainCancel.result()).toBe('cancelled_on_chain');
      await recordShape(onChainCancel, 'subscription-onchain-cancel', ON_CHAIN_CANCEL_SHAPE);
      await expect(service.cancel(scope, subscriptionId, {})).rejects.toBeInstanceOf(InvalidStateError);
    });
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect((await subscriptionRow(subscriptionId)).onChainCancelledAt).toBeInstanceOf(Date);
    expect(await eventCount(subscriptionId, 'subscription.cancelled')).toBe(1);
    expect((await charges(subscriptionId)).map((c) => c.status)).toEqual(['succeeded']);
  });

  it('the on-chain cancel of a completed subscription gives up, cancelling nothing, when no cancel is ever recorded', async () => {
    const { subscriptionId, handle, log } = await enrol({ amount: USDC(10), periods: 1 });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      expect(await handle.result()).toBe('completed');
      // As if the api started it and then died before its transaction committed.
      const run = await env.client.workflow.start('subscriptionOnChainCancelWorkflow', {
        workflowId: onChainCancelWorkflowId(subscriptionId),
        taskQueue,
        args: [{ subscriptionId }],
      });
      expect(await run.result()).toBe('not_cancelled');
      await recordShape(run, 'subscription-onchain-cancel-gave-up', ON_CHAIN_CANCEL_SHAPE);
    });
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(false);
    expect((await subscriptionRow(subscriptionId)).status).toBe('completed');
  });

  it('pauses: a period that comes due while paused is skipped, and charging resumes after resume', async () => {
    const { subscriptionId, handle } = await enrol({ amount: USDC(10), periods: 3 });
    const service = createSubscriptionService({ sql: db.sql, events: deps.events, temporal: env.client });
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await waitFor(
        () => charges(subscriptionId),
        (rows) => rows.length === 1 && rows[0]!.status === 'succeeded',
        'the first charge',
      );
      await waitFor(
        () => subscriptionRow(subscriptionId),
        (row) => row.status === 'active',
        'active',
      );
      expect(await service.pause(scope, subscriptionId)).toMatchObject({ status: 'paused', nextChargeAt: null });
      await expect(service.pause(scope, subscriptionId)).rejects.toBeInstanceOf(InvalidStateError);

      // Period 1 comes due while paused: skipped, nothing charged.
      await env.sleep('32 days');
      await waitFor(
        () => handle.query(getStatusQuery),
        (s: SubscriptionWorkflowState) => s.status === 'paused' && s.nextPeriodIndex === 2,
        'period 1 skipped',
      );
      expect((await charges(subscriptionId)).map((c) => c.periodIndex)).toEqual([0]);

      const resumed = await service.resume(scope, subscriptionId);
      expect(resumed.status).toBe('active');
      expect(resumed.nextChargeAt).not.toBeNull();
      await expect(service.resume(scope, subscriptionId)).rejects.toBeInstanceOf(InvalidStateError);
      expect(await handle.result()).toBe('completed');
    });
    expect((await charges(subscriptionId)).map((c) => [c.periodIndex, c.status])).toEqual([
      [0, 'succeeded'],
      [2, 'succeeded'],
    ]);
  });

  it('a monthly subscription anchored on Jan 31 charges on Feb 28/29 and Mar 31', async () => {
    const now = new Date(Math.max(await env.currentTimeMs(), await chain.chainNowMs()));
    const year = now.getUTCMonth() === 0 && now.getUTCDate() < 31 ? now.getUTCFullYear() : now.getUTCFullYear() + 1;
    const jan31 = Date.UTC(year, 0, 31, 0, 0, 0);
    // Jan 31 is reached through a trial, which the indexer accepts only as a plan's own trial: a plan
    // whose trial days end there (the trial on chain is shorter by less than a day, within tolerance).
    const trialPeriodDays = Math.ceil((jan31 - now.getTime()) / 86_400_000);
    await createPlanService({ sql: db.sql, events: outboxOnly }).create(
      { merchantId: merchant.merchantId, livemode: false },
      {
        name: 'Calendar from Jan 31',
        amount: USDC(30).toString(),
        currency: 'USDC',
        interval: 'monthly',
        intervalCount: 1,
        trialPeriodDays,
      },
    );
    const { subscriptionId, handle } = await enrol({ amount: USDC(30), periods: 3, trialEnd: BigInt(jan31 / 1000) });
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('completed');
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    expect((await charges(subscriptionId)).map((c) => [c.status, c.periodStart.toISOString()])).toEqual([
      ['succeeded', new Date(jan31).toISOString()],
      ['succeeded', new Date(Date.UTC(year, 1, leap ? 29 : 28)).toISOString()],
      ['succeeded', new Date(Date.UTC(year, 2, 31)).toISOString()],
    ]);
  });

  it('the chain port charges a period once and reports refusals by name without sending', async () => {
    // Enrolled on-chain only (no workflow: an unattended open workflow would hold up time skipping).
    const payer = newPayer();
    await chain.mint(payer.address, USDC(100));
    const log = await chain.enrol({ payer, amount: USDC(10), period: MONTH_PERIOD, periods: 0 });
    const now = new Date((await chain.chainNowMs()) - 1000).toISOString();
    const input = {
      livemode: false,
      onChainId: log.args.id.toString(),
      contractAddress: log.address,
      periodIndex: 0,
      amount: USDC(10).toString(),
      periodStart: now,
    };
    expect(await chain.subscriptionChain.charge({ ...input, amount: USDC(11).toString() })).toMatchObject({
      ok: false,
      failure: 'amount_exceeds_terms',
    });
    const first = await chain.subscriptionChain.charge(input);
    const second = await chain.subscriptionChain.charge(input);
    expect(first).toMatchObject({ ok: true, alreadyCharged: false });
    expect(second).toEqual({ ...first, alreadyCharged: true });
    expect(await chain.subscriptionChain.isCharged(input)).toBe(true);
    expect(await chain.subscriptionChain.charge({ ...input, periodIndex: 1 })).toMatchObject({ ok: false, failure: 'period_not_started' });
    expect(
      await chain.subscriptionChain.cancel({ livemode: false, onChainId: input.onChainId, contractAddress: log.address }),
    ).toMatchObject({
      alreadyCancelled: false,
    });
    expect(await chain.subscriptionChain.cancel({ livemode: false, onChainId: input.onChainId, contractAddress: log.address })).toEqual({
      txHash: null,
      alreadyCancelled: true,
    });
    expect(await chain.subscriptionChain.charge({ ...input, periodIndex: 1 })).toMatchObject({ ok: false, failure: 'cancelled_on_chain' });
  });

  it('subscriptions due together are charged in one chargeMany transaction; each workflow keeps its own period and outcome', async () => {
    // The worker's port batches for 2 s, so the three charges below meet in one batch.
    const batched = await createViemSubscriptionChain(
      {
        test: {
          rpcUrl: chain.anvil.rpcUrl,
          operatorKey: DEV_ACCOUNTS.operator.privateKey,
          subscriptionManager: chain.deployed.subscriptionManager,
          fromBlock: 0n,
          pollingIntervalMs: 50,
          chargeBatch: { windowMs: 2000, maxItems: 10 },
        },
      },
      { sql: db.sql },
    );
    const port: SubscriptionChain = {
      ...batched,
      charge: async (input) => (await chain.warpTo(Date.parse(input.periodStart)), batched.charge(input)),
    };
    const a = await enrol({ amount: USDC(10), periods: 1 });
    const b = await enrol({ amount: USDC(10), periods: 1 });
    const broke = await enrol({ amount: USDC(40), periods: 1, balance: 0n });
    const worker = await newWorker(port);
    await worker.runUntil(async () => {
      expect(await a.handle.result()).toBe('completed');
      expect(await b.handle.result()).toBe('completed');
      // Refused in the batch's simulation, reported by name: at_risk, retried, lapsed at the end of the grace window.
      expect(await broke.handle.result()).toBe('lapsed');
    });
    const [chargeA] = await charges(a.subscriptionId);
    const [chargeB] = await charges(b.subscriptionId);
    expect(chargeA).toMatchObject({ periodIndex: 0, status: 'succeeded', attempts: 1 });
    expect(chargeB).toMatchObject({ periodIndex: 0, status: 'succeeded', attempts: 1, txHash: chargeA!.txHash });
    const tx = await chain.pub.getTransaction({ hash: chargeA!.txHash as `0x${string}` });
    expect(tx.input.slice(0, 10)).toBe(CHARGE_MANY_SELECTOR);
    expect(await charges(broke.subscriptionId)).toMatchObject([{ periodIndex: 0, status: 'failed', failureCode: 'insufficient_funds' }]);
    expect(await eventCount(a.subscriptionId, 'subscription.charged')).toBe(1);
    expect(await eventCount(b.subscriptionId, 'subscription.charged')).toBe(1);
  });

  it('records a history for the replay test when RECORD_HISTORIES is set', async () => {
    const { handle } = await enrol({ amount: USDC(10), periods: 2 });
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('completed');
    const history = await handle.fetchHistory();
    expect(history.events?.length).toBeGreaterThan(10);
    await recordHistory(handle, 'subscription-two-periods');
  });

  it('no double charge: a worker process killed after sending the charge leaves exactly one on-chain charge for the period', async () => {
    // The dead worker's task is retried after the workflow task timeout, wall-clock time even on the
    // time-skipping server: the server's 10 s default rather than the product's 30 s keeps the wait short.
    const { subscriptionId, handle, log } = await enrol({ amount: USDC(10), periods: 1, workflowTaskTimeout: '10s' });
    // The first worker is a separate process: its charge lands on-chain, then it is SIGKILLed
    // before the activity completes.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../support/subscription-worker-process.ts', import.meta.url))],
      {
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          RPC_URL: chain.anvil.rpcUrl,
          OPERATOR_KEY: DEV_ACCOUNTS.operator.privateKey,
          SUBSCRIPTION_MANAGER: chain.deployed.subscriptionManager,
          TEMPORAL_ADDRESS: env.address,
          TASK_QUEUE: taskQueue,
          WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
          HANG_AFTER_CHARGE: '1',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('charge-sent')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
      });
      expect(await chain.isCharged(log.args.id.toString(), 0)).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect((await charges(subscriptionId))[0]).toMatchObject({ status: 'pending' });

    // A fresh worker: the activity times out and is retried; the contract's guard finds the charge.
    const second = await newWorker();
    expect(await second.runUntil(handle.result())).toBe('completed');
    const logs = await chain.pub.getContractEvents({
      address: chain.subscriptionManagerV2,
      abi: subscriptionManagerAbi,
      eventName: 'SubscriptionCharged',
      args: { id: log.args.id },
      fromBlock: 0n,
    });
    expect(logs).toHaveLength(1);
    expect(await charges(subscriptionId)).toMatchObject([
      { periodIndex: 0, status: 'succeeded', attempts: 1, txHash: logs[0]!.transactionHash },
    ]);
    expect(await eventCount(subscriptionId, 'subscription.charged')).toBe(1);
    // Wall-clock waits even on the time-skipping server: the dead worker's task times out after 10 s (set
    // at enrolment above; 30 s, SUBSCRIPTION_WORKFLOW_TASK_TIMEOUT, took 36 to 63 s alone and over 120 s
    // once in a loaded CI run), then the retried task finds the charge on-chain.
  }, 240_000);
});

describe('subscription workflow: plan changes (issue 40)', () => {
  it('a downgrade applies at the period end, an upgrade mid-period adds its exact proration to the next charge once, a cancelled pending change never applies', async () => {
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const planService = createPlanService({ sql: db.sql, events: outboxOnly });
    const plan = (name: string, amount: bigint) =>
      planService
        .create(scope, { name, amount: amount.toString(), currency: 'USDC', interval: 'monthly', intervalCount: 1, trialPeriodDays: 0 })
        .then((p) => p.id);
    const small = await plan('Small', USDC(4));
    const mid = await plan('Mid', USDC(19));
    // Enrolled on the 40 USDC plan: 40 a period is what the customer authorised on chain (the cap).
    const { subscriptionId, handle, log, payer } = await enrol({ amount: USDC(40), periods: 4 });
    // The service acts at the time-skipping server's time, as it would at a test clock's.
    const changePlan = async (planId: string) => {
      const at = new Date(await env.currentTimeMs());
      const service = createPlanChangeService({ sql: db.sql, events: outboxOnly, now: () => at });
      return { at, subscription: await service.change(scope, subscriptionId, { planId, prorationBehavior: 'create_prorations' }) };
    };
    const amounts = async () =>
      (
        await db.sql<{ periodIndex: number; amount: string; status: string }[]>`
        select period_index as "periodIndex", amount::text as amount, status from subscription_charges
        where subscription_id = ${subscriptionId} order by period_index`
      ).map((c) => [c.periodIndex, c.amount, c.status]);
    const [started] = await db.sql<{ firstPeriodStart: Date }[]>`
      select first_period_start as "firstPeriodStart" from subscriptions where id = ${subscriptionId}`;
    const schedule = { anchor: started!.firstPeriodStart, interval: 'monthly' as const, intervalCount: 1 };
    const balanceBefore = await chain.balanceOf(payer.address);
    let proration = 0n;

    const worker = await newWorker();
    await worker.runUntil(async () => {
      await waitFor(amounts, (rows) => rows.length === 1 && rows[0]![2] === 'succeeded', 'period 0 charged');
      // Downgrade in period 0: pending until period 1 starts.
      const downgrade = await changePlan(small);
      expect(downgrade.subscription).toMatchObject({
        planId: plans.risky,
        planAmount: USDC(40).toString(),
        pendingPlanChange: { planId: small, status: 'scheduled', effectiveAt: periodStart(schedule, 1).toISOString() },
      });

      await env.sleep('32 days');
      await waitFor(amounts, (rows) => rows.length === 2 && rows[1]![2] === 'succeeded', 'period 1 charged');
      const afterDowngrade = await createSubscriptionService({ sql: db.sql, events: outboxOnly }).get(scope, subscriptionId);
      expect(afterDowngrade).toMatchObject({ planId: small, planAmount: USDC(4).toString(), pendingPlanChange: null });

      // Mid-period 1: an upgrade within the cap, in effect at once; the proration rides on period 2's charge.
      const upgrade = await changePlan(mid);
      expect(upgrade.subscription).toMatchObject({ planId: mid, planAmount: USDC(19).toString(), pendingPlanChange: null });
      const start = periodStart(schedule, 1).getTime();
      const end = periodStart(schedule, 2).getTime();
      expect(upgrade.at.getTime()).toBeGreaterThan(start);
      expect(upgrade.at.getTime()).toBeLessThan(end);
      proration = ((USDC(19) - USDC(4)) * BigInt(Math.floor((end - upgrade.at.getTime()) / 1000))) / BigInt((end - start) / 1000);
      expect(proration).toBeGreaterThan(0n);

      // A downgrade scheduled for period 2, then cancelled by asking for the current plan again.
      expect((await changePlan(small)).subscription.pendingPlanChange).toMatchObject({ planId: small, status: 'scheduled' });
      expect((await changePlan(mid)).subscription.pendingPlanChange).toBeNull();

      expect(await handle.result()).toBe('completed');
    });

    expect(await amounts()).toEqual([
      [0, USDC(40).toString(), 'succeeded'],
      [1, USDC(4).toString(), 'succeeded'],
      [2, (USDC(19) + proration).toString(), 'succeeded'],
      [3, USDC(19).toString(), 'succeeded'],
    ]);
    // On chain: exactly these four pulls, the proration once.
    const pulled = await chain.pub.getContractEvents({
      address: chain.subscriptionManagerV2,
      abi: subscriptionManagerAbi,
      eventName: 'SubscriptionCharged',
      args: { id: log.args.id },
      fromBlock: 0n,
    });
    expect(pulled.map((l) => [l.args.periodIndex, l.args.amount])).toEqual([
      [0, USDC(40)],
      [1, USDC(4)],
      [2, USDC(19) + proration],
      [3, USDC(19)],
    ]);
    expect(balanceBefore - (await chain.balanceOf(payer.address))).toBe(USDC(40 + 4 + 19 + 19) + proration);
    const updates = await db.sql<{ status: string }[]>`
      select data->'planChange'->>'status' as status from events
      where type = 'subscription.updated' and data->'object'->>'id' = ${subscriptionId} order by id`;
    expect(updates.map((u) => u.status)).toEqual(['scheduled', 'applied', 'applied', 'scheduled', 'cancelled']);
    await recordHistory(handle, 'subscription-plan-changes');
  });
});
