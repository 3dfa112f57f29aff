// The agent's `recovery` capability (docs/agents.md, Recovery) on the time-skipping
// server, with a real database, a real anvil and a real SMTP sink: an at_risk
// subscription recovered by the strategy's second retry, one that lapses at the end
// of the agent's grace window, a top-up retried at once, and the capability off
// (today's behaviour: the merchant's grace window, a retry every 24 hours).
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as agentRepo from '../../src/agents/repo.js';
import { defaultAgentConfig, mergeAgentConfig } from '../../src/agents/service.js';
import type { UpdateAgentConfigBody } from '../../src/agents/schemas.js';
import type { SmtpSink } from '../../tools/dev/smtp-sink.js';
import { newId } from '../../src/ids.js';
import { setSubscriptionGracePeriodHours } from '../../src/merchants/repo.js';
import {
  onSubscriptionCreatedOnChain,
  onTransferToSubscriber,
  type SubscriptionChainEventDeps,
} from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { isRenewalToken, recordEnrolmentEmail } from '../../src/subscriptions/renewal-repo.js';
import { getStatusQuery } from '../../workflows/subscription.js';
import { subscriptionRecoveryWorkflowId } from '../../workflows/subscription-recovery.js';
import type { TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import type { SeededMerchant } from '../support/app.js';
import { startSubscriptionStack, waitFor, type SubscriptionStack } from '../support/subscription-stack.js';
import { alignClocks, newPayer, type TestChain } from '../support/subscriptions.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const HOUR = 3_600_000;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));

let stack: SubscriptionStack;
let db: TestDatabase;
let env: TestWorkflowEnvironment;
let chain: TestChain;
let merchant: SeededMerchant;
let sink: SmtpSink;
let taskQueue = 'recovery-test';
let deps: SubscriptionChainEventDeps;

beforeAll(async () => {
  stack = await startSubscriptionStack({ merchantName: 'Recovery merchant', plan: { name: 'Coffee club', amount: USDC(40) } });
  ({ db, env, chain, merchant, sink } = stack);
  await setSubscriptionGracePeriodHours(db.sql, merchant.merchantId, 72);
}, 180_000);

beforeEach(() => {
  taskQueue = `recovery-${randomBytes(4).toString('hex')}`;
  deps = stack.chainEventDeps(taskQueue);
});

afterAll(() => stack?.stop());

const scope = () => ({ merchantId: merchant.merchantId, livemode: false });

async function configure(patch: UpdateAgentConfigBody): Promise<void> {
  const current = await agentRepo.ensureConfig(db.sql, scope(), defaultAgentConfig());
  await agentRepo.updateConfig(db.sql, scope(), mergeAgentConfig(current.config, patch));
}

const newWorker = (): Promise<Worker> => stack.newWorker(taskQueue);

/** A customer with an empty wallet (the first charge is refused) who left an email at enrolment. */
async function enrolBroke(periods: number) {
  await alignClocks(env, chain);
  const payer = newPayer();
  const email = `customer-${randomBytes(4).toString('hex')}@example.com`;
  await recordEnrolmentEmail(db.sql, {
    id: newId('customer'),
    merchantId: merchant.merchantId,
    livemode: false,
    walletAddress: payer.address,
    email,
  });
  const log = await chain.enrol({ payer, amount: USDC(40), period: MONTH_PERIOD, periods });
  const created = await onSubscriptionCreatedOnChain(deps, log);
  if (created.outcome === 'ignored') throw new Error(`enrolment ignored: ${created.reason}`);
  return { payer, email, subscriptionId: created.subscriptionId, handle: env.client.workflow.getHandle(created.subscriptionId) };
}

const feed = (subscriptionId: string) =>
  db.sql<{ actionType: string; outcome: string; transactionId: string | null; details: Record<string, unknown> }[]>`
    select action_type as "actionType", outcome, transaction_id as "transactionId", details from agent_activity
    where subscription_id = ${subscriptionId} order by id`;
const charge0 = async (subscriptionId: string) =>
  (
    await db.sql<{ status: string; attempts: number; txHash: string | null }[]>`
    select status, attempts, tx_hash as "txHash" from subscription_charges where subscription_id = ${subscriptionId} and period_index = 0`
  )[0];
const statusOf = async (subscriptionId: string) =>
  (await db.sql<{ status: string }[]>`select status from subscriptions where id = ${subscriptionId}`)[0]!.status;
const eventCount = async (subscriptionId: string, type: string) =>
  (
    await db.sql<{ n: number }[]>`
    select count(*)::int as n from events
    where type = ${type} and (data->'object'->>'id' = ${subscriptionId} or data->'subscription'->>'id' = ${subscriptionId}
      or data->'object'->>'subscriptionId' = ${subscriptionId})`
  )[0]!.n;

/**
 * Workflow time from the first refused charge (the first activity task completed after the
 * subscription's first charge attempt: its on-chain charge) to the end of the run, from the
 * server's own event times: the test clock goes on skipping after a workflow ends.
 */
async function atRiskToEndMs(handle: WorkflowHandle): Promise<number> {
  const history = await handle.fetchHistory();
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
  const events = history.events ?? [];
  // The first charge to finish: a local activity's marker (chargePeriodAttempt, formerly chargeOnChain).
  const isChargeMarker = (e: (typeof events)[number]) =>
    e.markerRecordedEventAttributes?.markerName === 'core_local_activity' &&
    Object.values(e.markerRecordedEventAttributes.details ?? {}).some((p) =>
      (p.payloads ?? []).some((x) => /chargePeriodAttempt|chargeOnChain/.test(Buffer.from(x.data ?? []).toString('utf8'))),
    );
  const chargeRefused = events.find(
    (e) =>
      isChargeMarker(e) ||
      (e.activityTaskCompletedEventAttributes &&
        events.find((s) => Number(s.eventId) === Number(e.activityTaskCompletedEventAttributes!.scheduledEventId))
          ?.activityTaskScheduledEventAttributes?.activityType?.name === 'chargeOnChain'),
  );
  const end = events.find((e) => e.workflowExecutionCompletedEventAttributes);
  return ms(end?.eventTime) - ms(chargeRefused?.eventTime);
}

describe('agent recovery of at_risk subscriptions', () => {
  it('recovery on (twice, 48 h): the customer is emailed the template with a top-up link, the first retry at 24 h fails, the second at 48 h pays: active again', async () => {
    await configure({
      enabledCapabilities: ['recovery'],
      recovery: {
        gracePeriodHours: 48,
        strategy: 'twice',
        notificationTemplate: 'Hi {customerEmail}: {amount} for {planName} at {merchantName} failed. Pay by {graceDeadline}: {topUpUrl}',
      },
    });
    const { subscriptionId, handle, payer, email } = await enrolBroke(2);
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const atRisk = await waitFor(
        () => handle.query(getStatusQuery),
        (s) => s.status === 'at_risk',
        'at_risk',
      );
      const startedAt = await env.currentTimeMs();
      expect(Date.parse(atRisk.graceDeadline!) - startedAt).toBeGreaterThan(47 * HOUR);
      expect(Date.parse(atRisk.graceDeadline!) - startedAt).toBeLessThanOrEqual(48 * HOUR);
      const mail = await sink.waitFor((m) => m.to.includes(email));
      expect(mail.subject).toBe('Your payment for Coffee club failed (Recovery merchant)');
      expect(mail.text).toContain(
        `Hi ${email}: 40 USDC for Coffee club at Recovery merchant failed. Pay by ${atRisk.graceDeadline}: https://pay.example.test/checkout/subscriptions/${subscriptionId}/renew?token=`,
      );
      const token = /renew\?token=([\w-]+)/.exec(mail.text)![1]!;
      // The link opens the hosted renewal page like a renewal notice's.
      expect(await isRenewalToken(db.sql, subscriptionId, token)).toBe(true);
      expect(await isRenewalToken(db.sql, subscriptionId, 'x'.repeat(43))).toBe(false);
      expect((await feed(subscriptionId)).map((r) => [r.actionType, r.outcome])).toEqual([
        ['recovery_started', 'succeeded'],
        ['customer_notified', 'succeeded'],
      ]);
      // twice: at G/2 and at G (the grace deadline).
      const deadline = Date.parse(atRisk.graceDeadline!);
      expect((await feed(subscriptionId))[0]!.details).toMatchObject({
        strategy: 'twice',
        gracePeriodHours: 48,
        retryAt: [new Date(deadline - 24 * HOUR).toISOString(), atRisk.graceDeadline],
      });

      // First retry (24 h): still no funds.
      await env.sleep(25 * HOUR);
      await waitFor(
        () => feed(subscriptionId),
        (rows) => rows.length === 3,
        'first retry recorded',
      );
      expect(await charge0(subscriptionId)).toMatchObject({ status: 'failed', attempts: 2 });
      expect((await handle.query(getStatusQuery)).status).toBe('at_risk');

      // Funds arrive without any signal: the second scheduled retry (48 h) pays.
      await chain.mint(payer.address, USDC(100));
      await env.sleep(24 * HOUR);
      await waitFor(
        () => handle.query(getStatusQuery),
        (s) => s.status === 'active' && s.nextPeriodIndex === 1,
        'active after the second retry',
      );
    });
    const charge = await charge0(subscriptionId);
    expect(charge).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(await statusOf(subscriptionId)).toBe('active');
    const rows = await feed(subscriptionId);
    expect(rows.map((r) => [r.actionType, r.outcome])).toEqual([
      ['recovery_started', 'succeeded'],
      ['customer_notified', 'succeeded'],
      ['charge_retried', 'failed'],
      ['charge_retried', 'succeeded'],
      ['subscription_recovered', 'succeeded'],
    ]);
    expect(rows[3]!.transactionId).toBe(charge!.txHash);
    expect(rows[2]!.details).toMatchObject({ attempt: 2, trigger: 'scheduled', failure: 'insufficient_funds' });
    expect(await eventCount(subscriptionId, 'agent.action_executed')).toBe(5);
    expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(0);
    await recordHistory(handle, 'subscription-agent-recovered', 'base');
    await recordHistory(
      env.client.workflow.getHandle(subscriptionRecoveryWorkflowId(subscriptionId, 0)),
      'subscription-recovery.recovered',
      'base',
    );
    await env.client.workflow.getHandle(subscriptionId).terminate('end of test');
  }, 180_000);

  it("recovery on (twice, 10 h): both retries refused, the subscription lapses at the end of the agent's grace window, not the merchant's 72 h", async () => {
    await configure({
      enabledCapabilities: ['recovery'],
      recovery: { gracePeriodHours: 10, strategy: 'twice', notificationTemplate: 'Payment failed at {merchantName}.' },
    });
    const { subscriptionId, handle, email } = await enrolBroke(0);
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('lapsed');
    const elapsed = await atRiskToEndMs(handle);
    // Measured between history events, which a loaded worker records a moment late: a minute's slack
    // still tells the agent's 10 h from the merchant's 72 h.
    expect(elapsed).toBeGreaterThanOrEqual(10 * HOUR - 60_000);
    expect(elapsed).toBeLessThan(11 * HOUR);
    // The first charge and the retries at 5 h and 10 h.
    expect(await charge0(subscriptionId)).toMatchObject({ status: 'failed', attempts: 3 });
    expect(await statusOf(subscriptionId)).toBe('lapsed');
    expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(1);
    expect((await feed(subscriptionId)).map((r) => [r.actionType, r.outcome])).toEqual([
      ['recovery_started', 'succeeded'],
      ['customer_notified', 'succeeded'],
      ['charge_retried', 'failed'],
      ['charge_retried', 'failed'],
      ['subscription_lapsed', 'failed'],
    ]);
    // The template had no {topUpUrl}: the link is appended.
    const mail = sink.messages({ to: email })[0]!;
    expect(mail.text).toMatch(
      /^Payment failed at Recovery merchant\.\n\nhttps:\/\/pay\.example\.test\/checkout\/subscriptions\/sub_\w+\/renew\?token=[\w-]+/,
    );
    await recordHistory(handle, 'subscription-agent-lapsed', 'base');
    await recordHistory(
      env.client.workflow.getHandle(subscriptionRecoveryWorkflowId(subscriptionId, 0)),
      'subscription-recovery.lapsed',
      'base',
    );
  }, 180_000);

  it("recovery's own grace (8760 h) is clamped to the period's v2 charge window: the subscription lapses before the window closes", async () => {
    await configure({
      enabledCapabilities: ['recovery'],
      recovery: { gracePeriodHours: 8760, strategy: 'twice', notificationTemplate: 'Payment failed at {merchantName}.' },
    });
    const { subscriptionId, handle } = await enrolBroke(0);
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('lapsed');
    // Period 0 starts at the enrolment; its window (3,009,600 s) closes 836 h later. Unclamped, the
    // agent's retries would land at 4,380 h and 8,760 h, long after the contract stops accepting a charge.
    const elapsed = await atRiskToEndMs(handle);
    expect(elapsed).toBeLessThan(3_009_600_000);
    expect(elapsed).toBeGreaterThan(800 * HOUR);
    const [failure] = await db.sql<{ failureCode: string }[]>`
      select failure_code as "failureCode" from subscription_charges where subscription_id = ${subscriptionId} and period_index = 0`;
    expect(failure!.failureCode).toBe('insufficient_funds');
  }, 180_000);

  it('a top-up seen by the indexer is forwarded to the recovery and retried at once', async () => {
    await configure({ enabledCapabilities: ['recovery'], recovery: { gracePeriodHours: 72, strategy: 'once' } });
    const { subscriptionId, handle, payer } = await enrolBroke(1);
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await waitFor(
        () => feed(subscriptionId),
        (rows) => rows.length === 2,
        'recovery started',
      );
      await chain.mint(payer.address, USDC(100));
      expect(await onTransferToSubscriber(deps, { livemode: false, to: payer.address })).toEqual({ signalled: [subscriptionId] });
      expect(await handle.result()).toBe('completed');
    });
    expect(await charge0(subscriptionId)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect((await feed(subscriptionId)).map((r) => r.actionType)).toEqual([
      'recovery_started',
      'customer_notified',
      'charge_retried',
      'subscription_recovered',
    ]);
    expect((await feed(subscriptionId))[2]!.details).toMatchObject({ trigger: 'top_up' });
  }, 180_000);

  it("recovery configured but not enabled: today's behaviour (merchant grace 72 h, retries every 24 h), no agent action, no email", async () => {
    await configure({ enabledCapabilities: ['cashflow'], recovery: { gracePeriodHours: 10, strategy: 'once' } });
    const { subscriptionId, handle, email } = await enrolBroke(0);
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('lapsed');
    const elapsed = await atRiskToEndMs(handle);
    // Between history events, as above: the charge's marker is recorded a moment after the at-risk time the
    // grace runs from (a CI run measured 23 ms short of 72 h), so the same minute's slack.
    expect(elapsed).toBeGreaterThanOrEqual(72 * HOUR - 60_000);
    expect(elapsed).toBeLessThan(73 * HOUR);
    expect(await charge0(subscriptionId)).toMatchObject({ status: 'failed', attempts: 4 });
    expect(await feed(subscriptionId)).toEqual([]);
    expect(sink.messages({ to: email })).toEqual([]);
    await expect(env.client.workflow.getHandle(subscriptionRecoveryWorkflowId(subscriptionId, 0)).describe()).rejects.toThrow();
  }, 180_000);
});
