// Plan changes over the real app and database (issue 40, item 1): refusals with the envelope that change
// nothing, an upgrade within the authorised amount applied at once with its exact proration, a downgrade
// scheduled as a pending change and cancelled, an upgrade above the authorised amount waiting for the
// customer, the subscription.updated events and MRR. Subscriptions are seeded through the repos the indexer
// uses; the charges on chain are proven in test/workflows/subscription.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers/repo.js';
import { newId } from '../../src/ids.js';
import { insertPlan } from '../../src/subscription-plans/repo.js';
import { claimProrations } from '../../src/subscription-plan-changes/repo.js';
import { insertSubscriptionIfAbsent } from '../../src/subscriptions/repo.js';
import { periodStart } from '../../src/subscriptions/periods.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createSubscriptionActivities } from '../../activities/subscriptions.js';
import type { EventDispatcher } from '../../src/events/dispatch.js';
import type { SubscriptionChain } from '../../src/subscriptions/chain.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
const plans = { big: '', mid: '', small: '', weekly: '', others: '', live: '' };
let seq = 0;
const outboxOnly: EventDispatcher = { dispatch: async () => {} };
// The charge attempt reads and writes Postgres only; nothing here reaches a chain.
const unusedChain = new Proxy({} as SubscriptionChain, {
  get: (_, name) => {
    throw new Error(`no chain in this test (${String(name)})`);
  },
});
const USDC = (n: number) => String(n * 1_000_000);
// Period 0 started on Oct 1 (monthly): the subscription is mid-period whenever the test runs.
const FIRST_PERIOD_START = new Date('2026-10-01T00:00:00Z');

const api = (method: 'GET' | 'POST', url: string, payload?: object, key = merchant.secretKey) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
const change = (id: string, body: object) => api('POST', `/v1/subscriptions/${id}/change-plan`, body);

/** An active subscription on the 40 USDC plan (the authorised amount, the cap), charged up to period 1. */
async function seedSubscription(status: 'active' | 'cancelled' = 'active'): Promise<string> {
  const n = ++seq;
  const wallet = `0x${(0xc0ffee00 + n).toString(16).padStart(40, '0')}`;
  const customer = await upsertCustomer(db.sql, {
    id: newId('customer'),
    merchantId: merchant.merchantId,
    livemode: false,
    walletAddress: wallet,
    email: null,
  });
  const { id } = await insertSubscriptionIfAbsent(db.sql, {
    id: newId('subscription'),
    merchantId: merchant.merchantId,
    livemode: false,
    planId: plans.big,
    customerId: customer.id,
    status,
    chainId: '31337',
    contractAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    onChainId: String(1000 + n),
    subscriberAddress: wallet,
    tokenAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    amount: USDC(40),
    periodSeconds: String(28 * 86_400),
    periods: 0,
    firstPeriodStart: FIRST_PERIOD_START,
    trialEnd: null,
    nextChargeAt: new Date('2026-12-01T00:00:00Z'),
    createdTxHash: null,
  });
  await db.sql`update subscriptions set current_period_index = 1 where id = ${id}`;
  return id;
}

const state = async (id: string) =>
  (
    await db.sql<{ planId: string; priceAmount: string | null }[]>`
    select plan_id as "planId", price_amount::text as "priceAmount" from subscriptions where id = ${id}`
  )[0]!;
const updatedEvents = (id: string) =>
  db.sql<{ data: { object: { planId: string }; planChange: { status: string }; previousAttributes: Record<string, unknown> } }[]>`
    select data from events where type = 'subscription.updated' and data->'object'->>'id' = ${id} order by id`;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other');
  const plan = async (name: string, amount: string, interval = 'monthly', key = merchant.secretKey) => {
    const response = await api('POST', '/v1/subscription-plans', { name, amount, interval }, key);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().id as string;
  };
  plans.big = await plan('Big', USDC(40));
  plans.mid = await plan('Mid', USDC(25));
  plans.small = await plan('Small', USDC(10));
  plans.weekly = await plan('Weekly', USDC(10), 'weekly');
  plans.others = await plan('Theirs', USDC(10), 'monthly', other.secretKey);
  plans.live = (
    await insertPlan(db.sql, {
      id: newId('plan'),
      merchantId: merchant.merchantId,
      livemode: true,
      name: 'Live',
      amount: USDC(10),
      currency: 'USDC',
      interval: 'monthly',
      intervalCount: 1,
      trialPeriodDays: 0,
    })
  ).id;
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('plan changes', () => {
  it('refuses bad input and impossible changes with the envelope, changing nothing', async () => {
    const id = await seedSubscription();
    const cancelled = await seedSubscription('cancelled');
    const refusals: [string, object, number, string, string | undefined][] = [
      [id, { planId: 'plan_01J00000000000000000000000' }, 400, 'invalid_request', 'planId'],
      [id, { planId: plans.others }, 400, 'invalid_request', 'planId'],
      [id, { planId: plans.live }, 400, 'invalid_request', 'planId'],
      [id, { planId: plans.weekly }, 400, 'invalid_request', 'planId'],
      [id, { planId: plans.big }, 400, 'invalid_request', 'planId'],
      [id, { planId: plans.mid, prorationBehavior: 'always_invoice' }, 400, 'invalid_request', 'prorationBehavior'],
      [id, { planId: plans.mid, prorationBehavior: 'sometimes' }, 400, 'invalid_request', 'prorationBehavior'],
      [id, { planId: 'nope' }, 400, 'invalid_request', 'planId'],
      [id, {}, 400, 'invalid_request', 'planId'],
      [id, { planId: plans.mid, amount: '1' }, 400, 'invalid_request', undefined],
      [cancelled, { planId: plans.small }, 403, 'session_invalid_state', undefined],
      ['sub_01J00000000000000000000000', { planId: plans.small }, 404, 'not_found', 'id'],
    ];
    for (const [subscriptionId, body, status, code, param] of refusals) {
      const response = await change(subscriptionId, body);
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(status);
      const error = response.json().error;
      expect(error.code).toBe(code);
      if (param) {
        expect(error.param).toBe(param);
        if (status === 400) expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
      }
    }
    // Another merchant's subscription is not_found, never permission_denied.
    const theirs = await api('POST', `/v1/subscriptions/${id}/change-plan`, { planId: plans.others }, other.secretKey);
    expect(theirs.statusCode).toBe(404);
    // Read-only keys may not change plans.
    expect((await api('POST', `/v1/subscriptions/${id}/change-plan`, { planId: plans.small }, merchant.publishableKey)).statusCode).toBe(
      403,
    );
    expect(await state(id)).toEqual({ planId: plans.big, priceAmount: null });
    expect(await updatedEvents(id)).toEqual([]);
    expect((await db.sql`select count(*)::int as n from subscription_plan_changes where subscription_id = ${id}`)[0]!.n).toBe(0);
  });

  it('a downgrade is a pending change for the end of the period, shown on the object, and cancelled by the current plan', async () => {
    const id = await seedSubscription();
    const response = await change(id, { planId: plans.small });
    expect(response.statusCode, response.body).toBe(200);
    const nextPeriod = periodStart({ anchor: FIRST_PERIOD_START, interval: 'monthly', intervalCount: 1 }, 2).toISOString();
    expect(response.json()).toMatchObject({
      planId: plans.big,
      amount: USDC(40),
      planAmount: USDC(40),
      pendingPlanChange: {
        object: 'subscription_plan_change',
        fromPlanId: plans.big,
        planId: plans.small,
        fromAmount: USDC(40),
        amount: USDC(10),
        status: 'scheduled',
        prorationAmount: '0',
        effectiveAt: nextPeriod,
      },
    });
    expect((await api('GET', `/v1/subscriptions/${id}`)).json().pendingPlanChange.id).toBe(response.json().pendingPlanChange.id);
    expect(await state(id)).toEqual({ planId: plans.big, priceAmount: null });

    // The current plan back cancels it; then there is nothing left to cancel.
    const undone = await change(id, { planId: plans.big });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ planId: plans.big, planAmount: USDC(40), pendingPlanChange: null });
    expect((await change(id, { planId: plans.big })).json().error.param).toBe('planId');
    const events = await updatedEvents(id);
    expect(events.map((e) => e.data.planChange.status)).toEqual(['scheduled', 'cancelled']);
    expect(events[0]!.data.previousAttributes).toEqual({ pendingPlanChange: null });
    expect(events[1]!.data.previousAttributes).toMatchObject({ pendingPlanChange: { planId: plans.small, status: 'scheduled' } });
  });

  it('an upgrade within the authorised amount applies at once with floor((new - old) * remaining / period) to collect', async () => {
    const id = await seedSubscription();
    // As if a downgrade to Small had applied at the start of period 1: 10 a period under a 40 cap.
    await db.sql`update subscriptions set plan_id = ${plans.small}, price_amount = ${USDC(10)} where id = ${id}`;
    const response = await change(id, { planId: plans.mid });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ planId: plans.mid, amount: USDC(40), planAmount: USDC(25), pendingPlanChange: null });
    const [row] = await db.sql<{ prorationAmount: string; status: string; at: Date; periodIndex: number }[]>`
      select proration_amount::text as "prorationAmount", status, effective_at as at, period_index as "periodIndex"
      from subscription_plan_changes where subscription_id = ${id}`;
    // Recomputed here from the change's time and the calendar period holding it.
    const schedule = { anchor: FIRST_PERIOD_START, interval: 'monthly' as const, intervalCount: 1 };
    const start = periodStart(schedule, row!.periodIndex);
    const end = periodStart(schedule, row!.periodIndex + 1);
    expect(start.getTime()).toBeLessThanOrEqual(row!.at.getTime());
    expect(end.getTime()).toBeGreaterThan(row!.at.getTime());
    const remaining = BigInt(Math.floor((end.getTime() - row!.at.getTime()) / 1000));
    const period = BigInt((end.getTime() - start.getTime()) / 1000);
    expect(row).toMatchObject({ status: 'applied', prorationAmount: ((15_000_000n * remaining) / period).toString() });
    expect(BigInt(row!.prorationAmount)).toBeGreaterThan(0n);
    const [event] = await updatedEvents(id);
    expect(event!.data.previousAttributes).toEqual({ planId: plans.small, planAmount: USDC(10), pendingPlanChange: null });
    expect(event!.data.planChange).toMatchObject({ status: 'applied', prorationAmount: row!.prorationAmount });
    // MRR follows the price: 40 at enrolment, 10 after the downgrade, 25 after the upgrade (an expansion).
    const mrr = await db.sql<{ kind: string; mrrAfter: string }[]>`
      select kind, mrr_after::text as "mrrAfter" from subscription_mrr_changes where subscription_id = ${id} order by id`;
    expect(mrr.map((m) => [m.kind, m.mrrAfter])).toEqual([
      ['new', USDC(40)],
      ['contraction', USDC(10)],
      ['expansion', USDC(25)],
    ]);

    // The next period's first charge claims it once; a retried attempt of that period finds the same total,
    // the period in progress (already charged) and later periods find none.
    expect(await claimProrations(db.sql, id, row!.periodIndex)).toBe(0n);
    expect(await claimProrations(db.sql, id, row!.periodIndex + 1)).toBe(BigInt(row!.prorationAmount));
    expect(await claimProrations(db.sql, id, row!.periodIndex + 1)).toBe(BigInt(row!.prorationAmount));
    expect(await claimProrations(db.sql, id, row!.periodIndex + 2)).toBe(0n);

    // `none`: in effect at once, nothing to collect.
    const none = await change(id, { planId: plans.big, prorationBehavior: 'none' });
    expect(none.json()).toMatchObject({ planId: plans.big, planAmount: USDC(40) });
    const [last] = await db.sql<{ prorationAmount: string }[]>`
      select proration_amount::text as "prorationAmount" from subscription_plan_changes where subscription_id = ${id} order by id desc limit 1`;
    expect(last!.prorationAmount).toBe('0');
  });

  it('an upgrade above the authorised amount waits for the customer and changes nothing; a new change replaces it', async () => {
    const id = await seedSubscription();
    const premium = (await api('POST', '/v1/subscription-plans', { name: 'Premium', amount: USDC(50), interval: 'monthly' })).json().id;
    const response = await change(id, { planId: premium });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      planId: plans.big,
      planAmount: USDC(40),
      pendingPlanChange: { planId: premium, amount: USDC(50), status: 'requires_customer_action', effectiveAt: null, prorationAmount: '0' },
    });
    expect(await state(id)).toEqual({ planId: plans.big, priceAmount: null });
    const replaced = await change(id, { planId: plans.small });
    expect(replaced.json().pendingPlanChange).toMatchObject({ planId: plans.small, status: 'scheduled' });
    const rows = await db.sql<{ status: string }[]>`select status from subscription_plan_changes where subscription_id = ${id} order by id`;
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'scheduled']);
  });

  it('a coupon restricted to some plans stops discounting on another plan, and applies again back on its plan', async () => {
    const id = await seedSubscription();
    await db.sql`update subscriptions set plan_id = ${plans.small}, price_amount = ${USDC(10)} where id = ${id}`;
    const coupon = (
      await api('POST', '/v1/coupons', {
        name: 'Half off Small',
        percentOff: 50,
        duration: 'forever',
        appliesTo: { planIds: [plans.small] },
      })
    ).json();
    expect((await api('POST', `/v1/subscriptions/${id}/discount`, { coupon: coupon.id })).statusCode).toBe(200);
    const discounted = async () =>
      (await db.sql<{ amount: string | null }[]>`select discounted_amount::text as amount from subscriptions where id = ${id}`)[0]!.amount;
    expect(await discounted()).toBe(USDC(5));

    // Up to Mid (within the cap, at once): the coupon does not cover Mid, so Mid is charged in full.
    expect((await change(id, { planId: plans.mid, prorationBehavior: 'none' })).json()).toMatchObject({ planId: plans.mid });
    expect(await discounted()).toBeNull();
    const activities = createSubscriptionActivities({ sql: db.sql, subscriptionChain: unusedChain, events: outboxOnly });
    const attempt = async (periodIndex: number) =>
      activities.recordChargeAttempt({
        subscriptionId: id,
        periodIndex,
        periodStart: periodStart({ anchor: FIRST_PERIOD_START, interval: 'monthly', intervalCount: 1 }, periodIndex).toISOString(),
        attempt: 1,
      });
    expect(await attempt(2)).toMatchObject({ kind: 'charge', amount: USDC(25) });
    const [charge] = await db.sql<{ discountId: string | null }[]>`
      select discount_id as "discountId" from subscription_charges where subscription_id = ${id} and period_index = 2`;
    expect(charge!.discountId).toBeNull();
    // The discount stays attached (shown on the object) and applies again on the plan it covers.
    expect((await api('GET', `/v1/subscriptions/${id}`)).json().discount).toMatchObject({ coupon: { id: coupon.id } });
    await db.sql`update subscriptions set plan_id = ${plans.small}, price_amount = ${USDC(10)} where id = ${id}`;
    expect(await attempt(3)).toMatchObject({ kind: 'charge', amount: USDC(5) });
  });
});
