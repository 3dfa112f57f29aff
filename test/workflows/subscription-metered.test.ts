// Issue 41's "Done when" (items 3 and 4): usage-based billing through the subscription workflow on the
// time-skipping server, its activities on a real database and every charge on anvil with Circle's USDC.
// A 10 USDC/month plan plus 0.002 USDC per API call: the customer sends 12,345 events during period 0 (200 of
// them duplicates, 5 cancelled), so 12,140 count. At period 1's start, after the plan's grace, the close bills
// period 1's 10 USDC in advance plus period 0's usage in arrears: 10 + 12,140 x 0.002 = 34.28 USDC, pulled once.
// A second plan whose cap (30 USDC) is below such a month pulls the cap and opens an invoice for the rest.
// A third plan has a usage threshold: its usage is invoiced early, mid-period, and the close bills only what follows.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { createMeterService } from '../../src/billing-meters/service.js';
import { findUsageClose, listUsageCloses } from '../../src/billing-meters/period-close.js';
import { createPlanService } from '../../src/subscription-plans/service.js';
import { createSubscriptionService } from '../../src/subscriptions/service.js';
import { onSubscriptionCreatedOnChain } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2, periodStart } from '../../src/subscriptions/periods.js';
import { createSubscriptionActivities } from '../../activities/subscriptions.js';
import { createUsageCloser } from '../../src/billing-meters/period-close.js';
import { cancelSubscriptionSignal, getStatusQuery } from '../../workflows/subscription.js';
import { recordHistory } from '../support/histories.js';
import { outboxOnly, PUBLIC_BASE_URL, startSubscriptionStack, waitFor, type SubscriptionStack } from '../support/subscription-stack.js';
import { alignClocks, newPayer } from '../support/subscriptions.js';
import { Worker } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { createActivities } from '../../activities/index.js';
import type { ChainConfig } from '../../src/chain/config.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { settingsOf } from '../support/chain.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { workflowBundle } from '../support/temporal.js';
import { listThresholdBills, createThresholdBiller } from '../../src/billing-meters/usage-threshold.js';
import { usageThresholdSweepWorkflow } from '../../workflows/usage-threshold-sweep.js';
import { SCHEDULES } from '../../src/temporal/schedules.js';

const USDC = (n: number) => BigInt(Math.round(n * 1_000_000));
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The subscription workflow's shape with the metered close (workflows/subscription.ts, patch metered-usage). */
const HISTORY_SHAPE = 'metered-usage';

let stack: SubscriptionStack;
const taskQueue = `metered-${randomBytes(4).toString('hex')}`;
const scope = () => ({ merchantId: stack.merchant.merchantId, livemode: false });
let meterId = '';

beforeAll(async () => {
  stack = await startSubscriptionStack({ merchantName: 'Metered merchant', plan: { name: 'Fixed', amount: USDC(5) } });
  // The open invoice of a month above the cap is paid to the account's payout address (its payment session).
  await setPayoutAddress(stack.db.sql, stack.merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  const meters = createMeterService({ sql: stack.db.sql });
  meterId = (
    await meters.create(scope(), {
      displayName: 'API calls',
      eventName: 'api_call',
      aggregation: 'count',
      customerMapping: { type: 'by_wallet', eventPayloadKey: 'wallet' },
    })
  ).id;
  const plans = createPlanService({ sql: stack.db.sql, events: outboxOnly });
  // Distinct caps: an enrolment is matched to its plan by the amount it authorises (the cap). The third is billed
  // early when its usage not yet billed reaches 3 USDC (30 calls at 0.1 USDC).
  for (const [name, cap, unitAmount, threshold] of [
    ['API', USDC(50), '2000', null],
    ['API, small cap', USDC(30), '2000', null],
    ['API, threshold', USDC(40), '100000', USDC(3)],
  ] as const)
    await plans.create(scope(), {
      name,
      amount: USDC(10).toString(),
      currency: 'USDC',
      interval: 'monthly',
      intervalCount: 1,
      trialPeriodDays: 0,
      meteredPrices: [{ model: 'per_unit', meterId, unitAmount }],
      usageCap: cap.toString(),
      ...(threshold ? { usageThreshold: threshold.toString() } : {}),
    });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

/**
 * The stack's worker, with the mode's chain settings the open invoice's payment session needs (the stack's
 * own worker charges without them: its tests open no session).
 */
async function meteredWorker(): Promise<Worker> {
  const { deployed, anvil, subscriptionManagerV2 } = stack.chain;
  const chain: ChainConfig = {
    test: settingsOf({
      rpcUrl: anvil.rpcUrl,
      chainId: deployed.chainId,
      token: deployed.token,
      subscriptionManager: deployed.subscriptionManager,
      subscriptionManagerV2,
      escrow: deployed.escrow,
      deployBlock: deployed.deployBlock.toString(),
      relayer: DEV_ACCOUNTS.relayer.address,
      operator: DEV_ACCOUNTS.operator.address,
      payers: [],
    }),
  };
  return Worker.create({
    connection: stack.env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createActivities({
      sql: stack.db.sql,
      temporal: stack.env.client,
      taskQueue,
      events: outboxOnly,
      emails: stack.sendingEmails(taskQueue),
      subscriptionChain: stack.chain.subscriptionChain,
      publicBaseUrl: PUBLIC_BASE_URL,
      chain,
    }),
    shutdownGraceTime: '200ms',
    shutdownForceTime: '1s',
  });
}

/** `periods`: how many the wallet authorises (0: open-ended). */
async function enrol(cap: bigint, periods = 0) {
  const payer = newPayer();
  await stack.chain.mint(payer.address, USDC(1_000));
  const log = await stack.chain.enrol({ payer, amount: cap, period: MONTH_PERIOD, periods });
  const created = await onSubscriptionCreatedOnChain(stack.chainEventDeps(taskQueue), log);
  if (created.outcome === 'ignored') throw new Error(`enrolment ignored: ${created.reason}`);
  return { id: created.subscriptionId, payer, log, handle: stack.env.client.workflow.getHandle(created.subscriptionId) };
}

/** The subscription activities as the worker builds them (without the chain settings), to call one directly. */
function directActivities() {
  const usageCloser = createUsageCloser({ sql: stack.db.sql, events: outboxOnly, publicBaseUrl: PUBLIC_BASE_URL, taskQueue });
  return createSubscriptionActivities({
    sql: stack.db.sql,
    events: outboxOnly,
    subscriptionChain: stack.chain.subscriptionChain,
    usageCloser,
    thresholdBiller: createThresholdBiller({ sql: stack.db.sql, events: outboxOnly, usageCloser, publicBaseUrl: PUBLIC_BASE_URL }),
  });
}

const periodZeroCharged = (id: string) =>
  waitFor(
    () => charges(id),
    (rows) => rows.length === 1 && rows[0]!.status === 'succeeded',
    'period 0 charged',
  );

const charges = (id: string) =>
  stack.db.sql<{ periodIndex: number; status: string; amount: string }[]>`
    select period_index as "periodIndex", status, amount::text as amount
    from subscription_charges where subscription_id = ${id} order by period_index`;

/**
 * `count` usage events of `wallet`, `duplicates` of them sent twice, timestamped through period 0 (up to `untilMs`),
 * through the batch form (100 a call). The timestamp window (35 days back, 5 minutes ahead) is measured from the
 * service's now: here the workflow's (test) time, which the time-skipping server has moved past the wall clock.
 */
async function sendUsage(wallet: Address, prefix: string, input: { count: number; duplicates: number; fromMs: number; untilMs: number }) {
  const nowMs = await stack.env.currentTimeMs();
  const meters = createMeterService({ sql: stack.db.sql, now: () => new Date(nowMs) });
  const step = (input.untilMs - input.fromMs) / input.count;
  const events = Array.from({ length: input.count }, (_, i) => ({
    eventName: 'api_call',
    identifier: `${prefix}-${i}`,
    timestamp: new Date(Math.floor(input.fromMs + i * step)).toISOString(),
    payload: { wallet },
  }));
  const all = [...events, ...events.slice(0, input.duplicates)];
  const totals = { accepted: 0, duplicates: 0, refused: 0 };
  for (let i = 0; i < all.length; i += 100) {
    const batch = await meters.ingestBatch(scope(), all.slice(i, i + 100));
    totals.accepted += batch.accepted;
    totals.duplicates += batch.duplicates;
    totals.refused += batch.refused;
  }
  return totals;
}

describe('metered subscription period close', () => {
  it('bills the period in advance and the usage of the one before in arrears, once, after the grace; a month above the cap opens an invoice for the rest', async () => {
    await alignClocks(stack.env, stack.chain);
    const main = await enrol(USDC(50));
    const capped = await enrol(USDC(30));
    // The capped customer has an email: the open invoice for the rest is sent to it.
    await stack.db
      .sql`update customers set email = 'capped@example.com' where id = (select customer_id from subscriptions where id = ${capped.id})`;
    let upcoming!: Record<'main' | 'capped', Awaited<ReturnType<ReturnType<typeof createSubscriptionService>['upcomingInvoice']>>>;
    const before = { main: await stack.chain.balanceOf(main.payer.address), capped: await stack.chain.balanceOf(capped.payer.address) };
    const schedule = { anchor: new Date(Number(main.log.args.firstPeriodStart) * 1000), interval: 'monthly' as const, intervalCount: 1 };
    const cappedSchedule = { ...schedule, anchor: new Date(Number(capped.log.args.firstPeriodStart) * 1000) };
    const periodOneStart = periodStart(schedule, 1).getTime();
    const worker = await meteredWorker();
    await worker.runUntil(async () => {
      await waitFor(
        async () => [...(await charges(main.id)), ...(await charges(capped.id))],
        (rows) => rows.length === 2 && rows.every((r) => r.status === 'succeeded'),
        'period 0 of both charged',
      );
      // Period 0 pulls the fixed price only (no usage yet), though the wallet authorised the cap.
      expect((await charges(main.id))[0]!.amount).toBe(USDC(10).toString());

      // Ten days into period 0 the customer has used the API: 12,345 events, 200 of them sent twice, 5 cancelled.
      await stack.env.sleep(10 * DAY_MS);
      const usageFrom = schedule.anchor.getTime() + HOUR_MS;
      const usageUntil = schedule.anchor.getTime() + 9 * DAY_MS;
      expect(
        await sendUsage(main.payer.address, 'main', { count: 12_145, duplicates: 200, fromMs: usageFrom, untilMs: usageUntil }),
      ).toEqual({
        accepted: 12_145,
        duplicates: 200,
        refused: 0,
      });
      // Cancellation is measured against when an event was accepted (the database's time): the service's own clock.
      const meters = createMeterService({ sql: stack.db.sql });
      for (const i of [3, 500, 7000, 12_000, 12_144]) await meters.cancel(scope(), `main-${i}`);
      // The capped customer's month: 11,000 calls, 10 + 22 = 32 USDC, above its 30 USDC cap.
      await sendUsage(capped.payer.address, 'capped', { count: 11_000, duplicates: 0, fromMs: usageFrom, untilMs: usageUntil });

      // The upcoming invoice before the close: period 1's lines if usage stopped now (compared with the frozen close below).
      const preview = createSubscriptionService({ sql: stack.db.sql, events: outboxOnly });
      upcoming = { main: await preview.upcomingInvoice(scope(), main.id), capped: await preview.upcomingInvoice(scope(), capped.id) };

      // Period 1 comes due; its charge waits the plan's grace (1 hour) for late events, then closes period 0.
      await stack.env.sleep(periodOneStart - (await stack.env.currentTimeMs()) + HOUR_MS / 2);
      expect((await charges(main.id)).map((c) => c.periodIndex)).toEqual([0]);
      expect((await main.handle.query(getStatusQuery)).nextPeriodIndex).toBe(1);
      // Past the grace (the time-skipping server moves only while the test sleeps on it).
      await stack.env.sleep(HOUR_MS);
      await waitFor(
        async () => [...(await charges(main.id)), ...(await charges(capped.id))],
        (rows) => rows.length === 4 && rows.every((r) => r.status === 'succeeded'),
        'period 1 of both charged',
      );
    });

    // The close: period 1's fixed price in advance, period 0's usage in arrears, exactly.
    const close = (await findUsageClose(stack.db.sql, main.id, 1))!;
    expect(close.usageStart).toEqual(schedule.anchor);
    expect(close.usageEnd).toEqual(periodStart(schedule, 1));
    expect(close.lines).toEqual([
      { type: 'fixed', description: 'API, period 2', amount: '10000000' },
      { type: 'usage', description: 'API calls: 12140 units', meterId, model: 'per_unit', quantity: '12140', amount: '24280000' },
    ]);
    expect(close).toMatchObject({ total: '34280000', charged: '34280000', remainder: '0', remainderInvoiceId: null });
    // The preview taken before the close is the close: same code, same usage.
    expect(upcoming.main).toMatchObject({
      object: 'upcoming_invoice',
      periodIndex: 1,
      usageStart: schedule.anchor.toISOString(),
      usageEnd: periodStart(schedule, 1).toISOString(),
      lines: close.lines,
      total: close.total,
      amountToCharge: close.charged,
      remainder: close.remainder,
      cap: '50000000',
      closed: false,
    });
    expect((await listUsageCloses(stack.db.sql, main.id)).map((c) => [c.periodIndex, c.total])).toEqual([
      [0, '10000000'],
      [1, '34280000'],
    ]);
    // Through the API's service: the closes newest first; the subscription authorised the cap, its price is the fixed amount.
    const subscriptions = createSubscriptionService({ sql: stack.db.sql, events: outboxOnly, temporal: stack.env.client, taskQueue });
    const listed = await subscriptions.periodCloses(scope(), main.id, { limit: 10 });
    expect(listed.data.map((c) => [c.object, c.periodIndex, c.charged])).toEqual([
      ['subscription_period_close', 1, '34280000'],
      ['subscription_period_close', 0, '10000000'],
    ]);
    expect(await subscriptions.get(scope(), main.id)).toMatchObject({ amount: '50000000', planAmount: '10000000' });
    // Pulled once on chain: 10 USDC for period 0, 34.28 USDC for period 1, nothing else.
    expect((await charges(main.id)).map((c) => [c.periodIndex, c.amount])).toEqual([
      [0, '10000000'],
      [1, '34280000'],
    ]);
    expect(before.main - (await stack.chain.balanceOf(main.payer.address))).toBe(USDC(10) + USDC(34.28));

    // Above the cap: 30 USDC pulled, the 2 USDC left an open invoice with its payment session and the event.
    const cappedClose = (await findUsageClose(stack.db.sql, capped.id, 1))!;
    expect(cappedClose).toMatchObject({ total: '32000000', charged: '30000000', remainder: '2000000' });
    expect(cappedClose.usageEnd).toEqual(periodStart(cappedSchedule, 1));
    expect(before.capped - (await stack.chain.balanceOf(capped.payer.address))).toBe(USDC(10) + USDC(30));
    expect(upcoming.capped).toMatchObject({
      lines: cappedClose.lines,
      total: '32000000',
      amountToCharge: '30000000',
      remainder: '2000000',
      cap: '30000000',
    });
    // After the close the next charge is period 2's: its fixed price and period 1's usage so far (none).
    expect(await subscriptions.upcomingInvoice(scope(), main.id)).toMatchObject({
      periodIndex: 2,
      usageStart: periodStart(schedule, 1).toISOString(),
      lines: [
        { type: 'fixed', amount: '10000000' },
        { type: 'usage', meterId, quantity: '0', amount: '0' },
      ],
      total: '10000000',
      amountToCharge: '10000000',
      remainder: '0',
    });
    const [invoice] = await stack.db.sql<
      { id: string; status: string; total: string; sessionId: string; metadata: Record<string, string> }[]
    >`
      select id, status, total::text as total, session_id as "sessionId", metadata from invoices where id = ${cappedClose.remainderInvoiceId}`;
    // Open at once (sent, payable, overdue after its due date) and emailed to the customer as POST /v1/invoices/{id}/send does.
    expect(invoice).toMatchObject({ status: 'sent', total: '2000000', metadata: { subscriptionId: capped.id, periodIndex: '1' } });
    const emails = await stack.db.sql<{ toAddress: string; kind: string; subject: string }[]>`
      select to_address as "toAddress", kind, subject from outbound_emails
      where id = (select email_id from invoices where id = ${invoice!.id})`;
    expect(emails).toEqual([{ toAddress: 'capped@example.com', kind: 'invoice', subject: expect.any(String) }]);
    const [session] = await stack.db.sql<{ amount: string; status: string }[]>`
      select amount::text as amount, status from payment_sessions where id = ${invoice!.sessionId}`;
    expect(session).toEqual({ amount: '2000000', status: 'open' });
    const overCap = await stack.db.sql<{ data: { object: { remainder: string }; invoice: { id: string; hostedInvoiceUrl: string } } }[]>`
      select data from events where type = 'subscription.usage_over_cap' and data->'subscription'->>'id' = ${capped.id}`;
    expect(overCap).toHaveLength(1);
    expect(overCap[0]!.data.object.remainder).toBe('2000000');
    expect(overCap[0]!.data.invoice).toMatchObject({
      id: invoice!.id,
      status: 'sent',
      hostedInvoiceUrl: `${PUBLIC_BASE_URL}/checkout/${invoice!.sessionId}/invoice`,
    });
    expect(
      await stack.db.sql`select 1 from events where type = 'subscription.usage_over_cap' and data->'subscription'->>'id' = ${main.id}`,
    ).toHaveLength(0);

    // The close is frozen: an event arriving after it (still within the window) changes nothing, and a retry
    // of the period's attempt reads the same amounts.
    const late = await createMeterService({ sql: stack.db.sql, now: () => new Date(periodOneStart + 2 * HOUR_MS) }).ingest(scope(), {
      eventName: 'api_call',
      identifier: 'main-late',
      timestamp: new Date(periodOneStart - HOUR_MS).toISOString(),
      payload: { wallet: main.payer.address },
    });
    expect(late.duplicate).toBe(false);
    const activities = directActivities();
    const retry = await activities.recordChargeAttempt({
      subscriptionId: main.id,
      periodIndex: 1,
      periodStart: periodStart(schedule, 1).toISOString(),
      attempt: 2,
    });
    expect(retry).toMatchObject({ kind: 'charge', alreadySucceeded: true, amount: '34280000' });
    expect((await findUsageClose(stack.db.sql, main.id, 1))!.total).toBe('34280000');
    await recordHistory(main.handle, 'subscription-metered', HISTORY_SHAPE);
    // A subscription with no next charge (here completed) has no upcoming invoice: a state refusal, not a 404.
    await stack.db.sql`update subscriptions set status = 'completed', next_charge_at = null where id = ${capped.id}`;
    await expect(subscriptions.upcomingInvoice(scope(), capped.id)).rejects.toMatchObject({ code: 'session_invalid_state', param: 'id' });
    // Their workflows would wake in the next tests' months (on the next tests' workers): ended here.
    for (const handle of [main.handle, capped.handle]) await handle.terminate('end of the test');
  }, 300_000);

  it("a cancel closes the last period's usage up to it after the grace: invoiced once, nothing more pulled", async () => {
    await alignClocks(stack.env, stack.chain);
    const sub = await enrol(USDC(50));
    const before = await stack.chain.balanceOf(sub.payer.address);
    const schedule = { anchor: new Date(Number(sub.log.args.firstPeriodStart) * 1000), interval: 'monthly' as const, intervalCount: 1 };
    const worker = await meteredWorker();
    let cancelledAt = 0;
    await worker.runUntil(async () => {
      await periodZeroCharged(sub.id);
      // Five days into period 0: 100 calls, then the merchant cancels at once.
      await stack.env.sleep(5 * DAY_MS);
      const from = schedule.anchor.getTime() + HOUR_MS;
      await sendUsage(sub.payer.address, 'ended', { count: 100, duplicates: 0, fromMs: from, untilMs: from + 3 * DAY_MS });
      // Recorded, then signalled, as POST /v1/subscriptions/{id}/cancel does, at the time-skipping server's time
      // (ahead of the database's wall clock; in production the two are one clock).
      cancelledAt = await stack.env.currentTimeMs();
      await stack.db.sql`
        update subscriptions set status = 'cancelled', cancelled_by = 'merchant', cancelled_at = ${new Date(cancelledAt)}, next_charge_at = null
        where id = ${sub.id}`;
      await sub.handle.signal(cancelSubscriptionSignal, { by: 'merchant' });
      // Within the grace: seven late calls made before the cancel count, three made after it do not.
      await sendUsage(sub.payer.address, 'ended-late', {
        count: 7,
        duplicates: 0,
        fromMs: cancelledAt - HOUR_MS,
        untilMs: cancelledAt - 1000,
      });
      await sendUsage(sub.payer.address, 'ended-after', { count: 3, duplicates: 0, fromMs: cancelledAt, untilMs: cancelledAt + 60_000 });
      expect(await findUsageClose(stack.db.sql, sub.id, 1)).toBeUndefined();
      // Past the plan's grace (1 hour) after the cancel.
      await stack.env.sleep(HOUR_MS + 60_000);
      await waitFor(
        () => findUsageClose(stack.db.sql, sub.id, 1),
        (close) => close !== undefined,
        'the final close',
      );
      await sub.handle.result();
    });
    const close = (await findUsageClose(stack.db.sql, sub.id, 1))!;
    expect(close).toMatchObject({ final: true, total: '214000', charged: '0', remainder: '214000' });
    expect(close.usageStart).toEqual(schedule.anchor);
    expect(close.usageEnd!.getTime()).toBe(cancelledAt);
    expect(close.lines).toEqual([
      { type: 'usage', description: 'API calls: 107 units', meterId, model: 'per_unit', quantity: '107', amount: '214000' },
    ]);
    // Invoiced (open at once: the customer has no email), never pulled: the chain saw period 0's 10 USDC only.
    const invoices = await stack.db.sql<{ id: string; status: string; total: string }[]>`
      select id, status, total::text as total from invoices where metadata->>'subscriptionId' = ${sub.id}`;
    expect(invoices).toEqual([{ id: close.remainderInvoiceId, status: 'sent', total: '214000' }]);
    expect((await charges(sub.id)).map((c) => c.periodIndex)).toEqual([0]);
    expect(before - (await stack.chain.balanceOf(sub.payer.address))).toBe(USDC(10));
    const sent = await stack.db.sql<{ data: { object: { final: boolean }; invoice: { id: string } } }[]>`
      select data from events where type = 'subscription.final_usage_invoiced' and data->'subscription'->>'id' = ${sub.id}`;
    expect(sent.map((e) => [e.data.object.final, e.data.invoice.id])).toEqual([[true, close.remainderInvoiceId]]);
    // Once: the activity again (a retry) finds the close and writes nothing more.
    const activities = directActivities();
    expect(await activities.finalUsageCloseAt({ subscriptionId: sub.id })).toEqual({ closeAtMs: null });
    expect(await activities.closeFinalUsage({ subscriptionId: sub.id })).toEqual({ closeId: null });
    expect(await stack.db.sql`select 1 from invoices where metadata->>'subscriptionId' = ${sub.id}`).toHaveLength(1);
    await recordHistory(sub.handle, 'subscription-metered-cancelled', 'final-usage');
  }, 300_000);

  it("a completed subscription's last period closes at its end, after the grace, and is invoiced", async () => {
    await alignClocks(stack.env, stack.chain);
    const sub = await enrol(USDC(50), 1);
    const schedule = { anchor: new Date(Number(sub.log.args.firstPeriodStart) * 1000), interval: 'monthly' as const, intervalCount: 1 };
    const periodEnd = periodStart(schedule, 1).getTime();
    const worker = await meteredWorker();
    await worker.runUntil(async () => {
      // Its one authorised period charged, the subscription completes at once; that period still runs.
      await waitFor(
        () => stack.db.sql<{ status: string }[]>`select status from subscriptions where id = ${sub.id}`,
        (rows) => rows[0]?.status === 'completed',
        'completed after period 0',
      );
      // Three weeks in: 40 calls made during them.
      await stack.env.sleep(22 * DAY_MS);
      const from = schedule.anchor.getTime() + DAY_MS;
      expect(
        await sendUsage(sub.payer.address, 'completed', { count: 40, duplicates: 0, fromMs: from, untilMs: from + 20 * DAY_MS }),
      ).toEqual({
        accepted: 40,
        duplicates: 0,
        refused: 0,
      });
      // At the period's end the usage is not closed yet: the grace (1 hour) is for late events.
      await stack.env.sleep(periodEnd - (await stack.env.currentTimeMs()) + HOUR_MS / 2);
      expect(await findUsageClose(stack.db.sql, sub.id, 1)).toBeUndefined();
      await stack.env.sleep(HOUR_MS);
      await waitFor(
        () => findUsageClose(stack.db.sql, sub.id, 1),
        (close) => close !== undefined,
        'the final close',
      );
      expect(await sub.handle.result()).toBe('completed');
    });
    const close = (await findUsageClose(stack.db.sql, sub.id, 1))!;
    expect(close).toMatchObject({ final: true, total: '80000', charged: '0', remainder: '80000', lines: [{ quantity: '40' }] });
    expect(close.usageEnd!.getTime()).toBe(periodEnd);
    const [invoice] = await stack.db.sql<{ status: string; total: string }[]>`
      select status, total::text as total from invoices where id = ${close.remainderInvoiceId}`;
    expect(invoice).toEqual({ status: 'sent', total: '80000' });
    expect((await charges(sub.id)).map((c) => c.periodIndex)).toEqual([0]);
    await recordHistory(sub.handle, 'subscription-metered-completed', 'final-usage');
  }, 300_000);
  it('a usage threshold invoices the usage up to the cut mid-period, once, and the period close bills only the usage after it', async () => {
    await alignClocks(stack.env, stack.chain);
    const sub = await enrol(USDC(40));
    const before = await stack.chain.balanceOf(sub.payer.address);
    const schedule = { anchor: new Date(Number(sub.log.args.firstPeriodStart) * 1000), interval: 'monthly' as const, intervalCount: 1 };
    const anchor = schedule.anchor.getTime();
    const periodOneStart = periodStart(schedule, 1).getTime();
    const subscriptions = createSubscriptionService({ sql: stack.db.sql, events: outboxOnly, temporal: stack.env.client, taskQueue });
    // In production a Schedule runs the sweep every 5 minutes; here the test runs it at chosen times.
    expect(SCHEDULES.find((d) => d.id === 'usage-threshold-sweep')).toMatchObject({
      workflow: usageThresholdSweepWorkflow,
      every: '5 minutes',
    });
    // The sweep through a plain client: the environment's own would let the time-skipping server jump to the next timer
    // (period 1's start) while waiting for the result; a Schedule's run does not move time either.
    const plainClient = new Client({
      connection: stack.env.connection,
      ...(stack.env.namespace ? { namespace: stack.env.namespace } : {}),
    });
    const sweep = (n: number) =>
      plainClient.workflow.execute(usageThresholdSweepWorkflow, { taskQueue, workflowId: `usage-threshold-${sub.id}-${n}` });
    const worker = await meteredWorker();
    let sweptFrom = 0;
    let sweptTo = 0;
    await worker.runUntil(async () => {
      await periodZeroCharged(sub.id);
      // Five days in: 20 calls (2 USDC), below the threshold: the sweep bills nothing.
      await stack.env.sleep(5 * DAY_MS);
      await sendUsage(sub.payer.address, 'thr-a', { count: 20, duplicates: 0, fromMs: anchor + HOUR_MS, untilMs: anchor + 3 * DAY_MS });
      expect(await sweep(1)).toBe(0);
      // 15 more (3.5 USDC in all), and 4 within the last hour: those are inside the plan's grace (1 hour) for late
      // events, so the threshold bill stops before them and the period close bills them.
      await sendUsage(sub.payer.address, 'thr-b', {
        count: 15,
        duplicates: 0,
        fromMs: anchor + 3 * DAY_MS + HOUR_MS,
        untilMs: anchor + 4 * DAY_MS,
      });
      const now = await stack.env.currentTimeMs();
      await sendUsage(sub.payer.address, 'thr-c', { count: 4, duplicates: 0, fromMs: now - 30 * 60_000, untilMs: now - 60_000 });
      sweptFrom = await stack.env.currentTimeMs();
      expect(await sweep(2)).toBe(1);
      sweptTo = await stack.env.currentTimeMs();
      // Again: nothing more (the window after the cut is empty, then below the threshold).
      expect(await sweep(3)).toBe(0);
      // The sweep's activity again at the bill's own time: nothing billed, nothing written.
      const [bill] = await listThresholdBills(stack.db.sql, sub.id);
      const activities = directActivities();
      const billedAt = bill!.usageEnd.getTime() + HOUR_MS;
      expect(await activities.billUsageThresholds({ nowMs: billedAt, afterId: null, limit: 50 })).toEqual({ billed: 0, nextAfterId: null });
      expect(await listThresholdBills(stack.db.sql, sub.id)).toHaveLength(1);
      expect(await stack.db.sql`select 1 from invoices where metadata->>'subscriptionId' = ${sub.id}`).toHaveLength(1);
      // The upcoming invoice starts at the cut: the 4 calls so far.
      expect(await subscriptions.upcomingInvoice(scope(), sub.id)).toMatchObject({
        periodIndex: 1,
        usageStart: bill!.usageEnd.toISOString(),
        lines: [
          { type: 'fixed', amount: '10000000' },
          { type: 'usage', quantity: '4', amount: '400000' },
        ],
        total: '10400000',
      });
      // Ten days later, 10 more calls (1.4 USDC after the cut: below the threshold), then period 1's close.
      await stack.env.sleep(10 * DAY_MS);
      expect(
        await sendUsage(sub.payer.address, 'thr-d', {
          count: 10,
          duplicates: 0,
          fromMs: anchor + 10 * DAY_MS,
          untilMs: anchor + 12 * DAY_MS,
        }),
      ).toEqual({ accepted: 10, duplicates: 0, refused: 0 });
      expect(await sweep(4)).toBe(0);
      await stack.env.sleep(periodOneStart - (await stack.env.currentTimeMs()) + HOUR_MS + HOUR_MS / 2);
      await waitFor(
        () => charges(sub.id),
        (rows) => rows.length === 2 && rows.every((r) => r.status === 'succeeded'),
        'period 1 charged',
      );
    });

    // One threshold bill: the 35 calls up to the cut, the sweep's time less the grace.
    const bills = await listThresholdBills(stack.db.sql, sub.id);
    expect(bills).toHaveLength(1);
    const bill = bills[0]!;
    expect(bill.usageStart).toEqual(schedule.anchor);
    expect(bill.usageEnd.getTime()).toBeGreaterThanOrEqual(sweptFrom - HOUR_MS);
    expect(bill.usageEnd.getTime()).toBeLessThanOrEqual(sweptTo - HOUR_MS);
    expect(bill).toMatchObject({
      total: '3500000',
      lines: [{ type: 'usage', description: 'API calls: 35 units', meterId, model: 'per_unit', quantity: '35', amount: '3500000' }],
    });
    const [cut] = await stack.db.sql<{ at: Date }[]>`select usage_billed_until as at from subscriptions where id = ${sub.id}`;
    expect(cut!.at).toEqual(bill.usageEnd);
    // Its invoice, open at once with its payment session; the event once.
    const invoices = await stack.db.sql<{ id: string; status: string; total: string; sessionId: string }[]>`
      select id, status, total::text as total, session_id as "sessionId" from invoices where metadata->>'subscriptionId' = ${sub.id}`;
    expect(invoices).toEqual([{ id: bill.invoiceId, status: 'sent', total: '3500000', sessionId: expect.any(String) }]);
    const [session] = await stack.db.sql<{ amount: string; status: string }[]>`
      select amount::text as amount, status from payment_sessions where id = ${invoices[0]!.sessionId}`;
    expect(session).toEqual({ amount: '3500000', status: 'open' });
    const reached = await stack.db.sql<{ data: { object: { id: string; total: string }; invoice: { id: string } } }[]>`
      select data from events where type = 'subscription.usage_threshold_reached' and data->'subscription'->>'id' = ${sub.id}`;
    expect(reached.map((e) => [e.data.object.id, e.data.object.total, e.data.invoice.id])).toEqual([[bill.id, '3500000', bill.invoiceId]]);

    // The period close bills period 1's price and only the usage after the cut: 4 + 10 calls, 1.4 USDC.
    const close = (await findUsageClose(stack.db.sql, sub.id, 1))!;
    expect(close.usageStart).toEqual(bill.usageEnd);
    expect(close.usageEnd).toEqual(periodStart(schedule, 1));
    expect(close.lines).toEqual([
      { type: 'fixed', description: 'API, threshold, period 2', amount: '10000000' },
      { type: 'usage', description: 'API calls: 14 units', meterId, model: 'per_unit', quantity: '14', amount: '1400000' },
    ]);
    expect(close).toMatchObject({ total: '11400000', charged: '11400000', remainder: '0' });
    // On chain: period 0's and period 1's charges only; the threshold bill pulled nothing.
    expect(before - (await stack.chain.balanceOf(sub.payer.address))).toBe(USDC(10) + USDC(11.4));

    await sub.handle.terminate('end of the test');
  }, 300_000);
});
