// GET /v1/stats/* over the real app and Postgres, on a hand-built ledger. Rows
// are written with SQL in chronological order, so the triggers of
// src/db/migrations/00014_analytics.sql record the MRR changes as the service's
// own writes would. Every expected figure below is worked out by hand from the
// formulas in docs/analytics.md (the arithmetic is in the comments), never by
// calling the code under test.
//
// Plans (test mode, USDC):
//   P1 monthly 10_000_000            MRR 10_000_000
//   P2 yearly 100_000_001            MRR 100_000_001 / 12 = 8_333_333 (truncated)
//   P3 weekly 1_000_000              MRR 1_000_000 x 52 / 12 = 4_333_333 (truncated)
//   PT monthly 20_000_000, trial     MRR 20_000_000 once paying
//
// Timeline (customer: subscription):
//   2023-12-15 A: a1 P1 active (10M)          2023-12-20 B: b1 P2 active (8_333_333)
//   2024-01-05 D: d1 PT trialing              2024-01-10 C: c1 P3 active (4_333_333)
//   2024-01-20 a1 amount 10M -> 15M (plan change mid-period = amount change: expansion 5M)
//   2024-01-25 E: e1 PT trialing
//   2024-02-01 F: f1 P1 active (10M)          2024-02-03 e1 cancelled while trialing (no MRR, no churn)
//   2024-02-05 d1 trialing -> active (new 20M, trial converted)
//   2024-02-10 c1 at_risk (still counted)     2024-02-15 a1 amount 15M -> 12M (contraction 3M)
//   2024-02-20 f1 paused (churned 10M, not a cancel/lapse)
//   2024-02-29T23:00 c1 lapsed (leap day; churned 4_333_333, involuntary)
//   2024-03-01 G: g1 P1 active (10M)          2024-03-02 G: g2 P3 active (4_333_333)
//   2024-03-05 f1 resumed (reactivation 10M)  2024-03-10 b1 cancelled (8_333_333, voluntary)
//   2024-03-20 g1 cancelled (10M; G still pays through g2, so G has not churned)
//   2024-03-25 H: h1 PT trialing (trial ends 2024-05-10)
//   2024-03-31T23:59:59 a1 cancelled (12M, voluntary; last second of the month)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { Sql } from '../../src/db/client.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let empty: SeededMerchant;
const plans: Record<string, string> = {};
const subs: Record<string, string> = {};
const customers: Record<string, string> = {};
let walletSeq = 0;

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function get(url: string, key = merchant.secretKey) {
  const response = await t.app.inject({ method: 'GET', url, headers: auth(key) });
  return { status: response.statusCode, body: response.json() };
}

async function insertPlan(
  sql: Sql,
  merchantId: string,
  livemode: boolean,
  amount: string,
  interval: string,
  trialDays = 0,
): Promise<string> {
  const id = newId('plan');
  await sql`insert into subscription_plans (id, merchant_id, livemode, name, amount, currency, interval, interval_count, trial_period_days)
            values (${id}, ${merchantId}, ${livemode}, ${id}, ${amount}, 'USDC', ${interval}, 1, ${trialDays})`;
  return id;
}

async function insertCustomer(sql: Sql, merchantId: string, livemode: boolean, createdAt: string): Promise<string> {
  const id = newId('customer');
  const wallet = `0x${(++walletSeq).toString(16).padStart(40, '0')}`;
  await sql`insert into customers (id, merchant_id, livemode, wallet_address, created_at) values (${id}, ${merchantId}, ${livemode}, ${wallet}, ${createdAt})`;
  return id;
}

async function insertSub(
  sql: Sql,
  s: {
    merchantId: string;
    livemode?: boolean;
    planId: string;
    customerId: string;
    status: string;
    amount: string;
    createdAt: string;
    firstPeriodStart?: string;
    trialEnd?: string | null;
    currentPeriodIndex?: number | null;
    nextChargeAt?: string | null;
    periods?: number;
  },
): Promise<string> {
  const id = newId('subscription');
  walletSeq++;
  await sql`
    insert into subscriptions (id, merchant_id, livemode, plan_id, customer_id, status, chain_id, contract_address, on_chain_id,
      subscriber_address, token_address, amount, period_seconds, periods, first_period_start, trial_end, current_period_index,
      next_charge_at, created_at, updated_at)
    values (${id}, ${s.merchantId}, ${s.livemode ?? false}, ${s.planId}, ${s.customerId}, ${s.status}, 31337,
      '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', ${walletSeq}, ${`0x${walletSeq.toString(16).padStart(40, '0')}`},
      '0x5fbdb2315678afecb367f032d93f642f64180aa3', ${s.amount}, 2592000, ${s.periods ?? 0}, ${s.firstPeriodStart ?? s.createdAt},
      ${s.trialEnd ?? null}, ${s.currentPeriodIndex ?? null}, ${s.nextChargeAt ?? null}, ${s.createdAt}, ${s.createdAt})`;
  return id;
}

/** A status or amount change at `at`, stamped the way the service stamps it. */
async function change(sql: Sql, id: string, at: string, update: { status?: string; amount?: string }) {
  await sql`
    update subscriptions set
      status = coalesce(${update.status ?? null}, status),
      amount = coalesce(${update.amount ?? null}::numeric, amount),
      updated_at = ${at},
      cancelled_at = case when ${update.status ?? null}::text = 'cancelled' then ${at}::timestamptz else cancelled_at end,
      lapsed_at = case when ${update.status ?? null}::text = 'lapsed' then ${at}::timestamptz else lapsed_at end
    where id = ${id}`;
}

async function charge(
  sql: Sql,
  sub: string,
  index: number,
  amount: string,
  status: string,
  settledAt: string,
  merchantId = merchant.merchantId,
) {
  const id = newId('subscriptionCharge');
  await sql`insert into subscription_charges (id, merchant_id, livemode, subscription_id, period_index, period_start, amount, status, attempts, settled_at)
            values (${id}, ${merchantId}, false, ${sub}, ${index}, ${settledAt}, ${amount}, ${status}, 1,
                    ${status === 'succeeded' ? settledAt : null})`;
  return id;
}

async function session(
  sql: Sql,
  createdAt: string,
  status: string,
  productId: string | null = null,
  merchantId = merchant.merchantId,
): Promise<string> {
  const id = newId('paymentSession');
  await sql`insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at, created_at, product_id)
            values (${id}, ${merchantId}, false, 1000000, 'USDC', ${status}, '0x0000000000000000000000000000000000000001',
                    '0x5fbdb2315678afecb367f032d93f642f64180aa3', 31337, ${createdAt}::timestamptz + interval '1 day', ${createdAt}, ${productId})`;
  return id;
}

async function invoice(sql: Sql, sentAt: string | null, paidAt: string | null) {
  const sessionId = await session(sql, sentAt ?? '2024-01-02T00:00:00Z', paidAt ? 'completed' : 'open');
  // A session backing an invoice is also a payment session; the session counts above include these.
  await sql`insert into invoices (id, merchant_id, livemode, number, currency, line_items, subtotal, total, status, session_id, due_at, due_in_days, sent_at, paid_at)
            values (${newId('invoice')}, ${merchant.merchantId}, false, ${newId('invoice')}, 'USDC', '[]', 1000000, 1000000,
                    ${paidAt ? 'paid' : sentAt ? 'sent' : 'draft'}, ${sessionId}, now(), 30, ${sentAt}, ${paidAt})`;
}

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other');
  empty = await seedMerchant(db.sql, 'Empty');
  const sql = db.sql;
  const m = merchant.merchantId;

  plans.P1 = await insertPlan(sql, m, false, '10000000', 'monthly');
  plans.P2 = await insertPlan(sql, m, false, '100000001', 'yearly');
  plans.P3 = await insertPlan(sql, m, false, '1000000', 'weekly');
  plans.PT = await insertPlan(sql, m, false, '20000000', 'monthly', 31);
  for (const [name, created] of Object.entries({
    A: '2023-12-15T10:00:00Z',
    B: '2023-12-20T10:00:00Z',
    D: '2024-01-05T10:00:00Z',
    C: '2024-01-10T10:00:00Z',
    E: '2024-01-25T10:00:00Z',
    F: '2024-02-01T10:00:00Z',
    G: '2024-03-01T10:00:00Z',
    H: '2024-03-25T10:00:00Z',
  })) {
    customers[name] = await insertCustomer(sql, m, false, created);
  }

  // Chronological, as the service would write them.
  subs.a1 = await insertSub(sql, {
    merchantId: m,
    planId: plans.P1,
    customerId: customers.A!,
    status: 'active',
    amount: '10000000',
    createdAt: '2023-12-15T10:00:00Z',
  });
  subs.b1 = await insertSub(sql, {
    merchantId: m,
    planId: plans.P2,
    customerId: customers.B!,
    status: 'active',
    amount: '100000001',
    createdAt: '2023-12-20T10:00:00Z',
  });
  subs.d1 = await insertSub(sql, {
    merchantId: m,
    planId: plans.PT,
    customerId: customers.D!,
    status: 'trialing',
    amount: '20000000',
    createdAt: '2024-01-05T10:00:00Z',
    firstPeriodStart: '2024-02-05T10:00:00Z',
    trialEnd: '2024-02-05T10:00:00Z',
    nextChargeAt: '2024-02-05T10:00:00Z',
  });
  subs.c1 = await insertSub(sql, {
    merchantId: m,
    planId: plans.P3,
    customerId: customers.C!,
    status: 'active',
    amount: '1000000',
    createdAt: '2024-01-10T10:00:00Z',
  });
  await change(sql, subs.a1, '2024-01-20T10:00:00Z', { amount: '15000000' });
  subs.e1 = await insertSub(sql, {
    merchantId: m,
    planId: plans.PT,
    customerId: customers.E!,
    status: 'trialing',
    amount: '20000000',
    createdAt: '2024-01-25T10:00:00Z',
    trialEnd: '2024-02-25T10:00:00Z',
  });
  subs.f1 = await insertSub(sql, {
    merchantId: m,
    planId: plans.P1,
    customerId: customers.F!,
    status: 'active',
    amount: '10000000',
    createdAt: '2024-02-01T10:00:00Z',
    firstPeriodStart: '2024-01-31T10:00:00Z',
    currentPeriodIndex: 2,
    nextChargeAt: '2024-04-30T10:00:00Z',
    periods: 5,
  });
  await change(sql, subs.e1, '2024-02-03T10:00:00Z', { status: 'cancelled' });
  await sql`update subscriptions set status = 'active', current_period_index = 1, next_charge_at = '2024-04-05T10:00:00Z', updated_at = '2024-02-05T10:00:00Z' where id = ${subs.d1}`;
  await change(sql, subs.c1, '2024-02-10T10:00:00Z', { status: 'at_risk' });
  await change(sql, subs.a1, '2024-02-15T10:00:00Z', { amount: '12000000' });
  await change(sql, subs.f1, '2024-02-20T10:00:00Z', { status: 'paused' });
  await change(sql, subs.c1, '2024-02-29T23:00:00Z', { status: 'lapsed' });
  subs.g1 = await insertSub(sql, {
    merchantId: m,
    planId: plans.P1,
    customerId: customers.G!,
    status: 'active',
    amount: '10000000',
    createdAt: '2024-03-01T10:00:00Z',
  });
  subs.g2 = await insertSub(sql, {
    merchantId: m,
    planId: plans.P3,
    customerId: customers.G!,
    status: 'active',
    amount: '1000000',
    createdAt: '2024-03-02T10:00:00Z',
    currentPeriodIndex: 4,
    nextChargeAt: '2024-04-06T10:00:00Z',
  });
  await change(sql, subs.f1, '2024-03-05T10:00:00Z', { status: 'active' });
  await change(sql, subs.b1, '2024-03-10T10:00:00Z', { status: 'cancelled' });
  await change(sql, subs.g1, '2024-03-20T10:00:00Z', { status: 'cancelled' });
  subs.h1 = await insertSub(sql, {
    merchantId: m,
    planId: plans.PT,
    customerId: customers.H!,
    status: 'trialing',
    amount: '20000000',
    createdAt: '2024-03-25T10:00:00Z',
    firstPeriodStart: '2024-05-10T10:00:00Z',
    trialEnd: '2024-05-10T10:00:00Z',
    nextChargeAt: '2024-05-10T10:00:00Z',
  });
  await change(sql, subs.a1, '2024-03-31T23:59:59Z', { status: 'cancelled' });

  // Succeeded charges (cohort revenue). c1: five weekly charges, then a failure.
  for (const [i, day] of ['2024-01-10', '2024-01-17', '2024-01-24', '2024-01-31', '2024-02-07'].entries()) {
    await charge(sql, subs.c1, i, '1000000', 'succeeded', `${day}T10:00:00Z`);
  }
  await charge(sql, subs.c1, 5, '1000000', 'failed', '2024-02-14T10:00:00Z');
  await charge(sql, subs.d1, 0, '20000000', 'succeeded', '2024-02-05T10:00:00Z');
  await charge(sql, subs.d1, 1, '20000000', 'succeeded', '2024-03-05T10:00:00Z');
  await charge(sql, subs.d1, 2, '20000000', 'succeeded', '2024-04-05T10:00:00Z'); // after `to`: not counted
  await charge(sql, subs.f1, 1, '10000000', 'succeeded', '2024-02-01T10:00:00Z');
  await charge(sql, subs.f1, 2, '10000000', 'succeeded', '2024-03-05T10:00:00Z');
  await charge(sql, subs.g1, 0, '10000000', 'succeeded', '2024-03-01T10:00:00Z');
  await charge(sql, subs.g2, 0, '1000000', 'succeeded', '2024-03-02T10:00:00Z');
  const pending = await charge(sql, subs.g2, 1, '1000000', 'pending', '2024-03-09T10:00:00Z');
  // Pending -> succeeded through an update (the statement trigger on update counts it once).
  await sql`update subscription_charges set status = 'succeeded', settled_at = '2024-03-09T10:00:00Z' where id = ${pending}`;
  await sql`update subscription_charges set attempts = 2 where id = ${pending}`;

  // Payment sessions. January: 2 paid, 1 expired, 1 open. February: 2 storefront (1 paid, 1 expired), 1 paid.
  const product = newId('product');
  await sql`insert into products (id, merchant_id, livemode, name, amount, currency) values (${product}, ${m}, false, 'Mug', 1000000, 'USDC')`;
  await session(sql, '2024-01-03T10:00:00Z', 'completed');
  await session(sql, '2024-01-04T10:00:00Z', 'completed');
  await session(sql, '2024-01-05T10:00:00Z', 'expired');
  await session(sql, '2024-01-06T10:00:00Z', 'open');
  await session(sql, '2024-02-02T10:00:00Z', 'completed', product);
  await session(sql, '2024-02-03T10:00:00Z', 'expired', product);
  await session(sql, '2024-02-04T10:00:00Z', 'completed');
  // Invoices: January 2 sent (1 paid), February 1 sent and paid, 1 draft never sent. Each adds its
  // backing session: January +2 created (1 completed), February +1 created (1 completed), the draft's
  // session lands on 2024-01-02 (open).
  await invoice(sql, '2024-01-15T10:00:00Z', '2024-01-20T10:00:00Z');
  await invoice(sql, '2024-01-16T10:00:00Z', null);
  await invoice(sql, '2024-02-10T10:00:00Z', '2024-02-11T10:00:00Z');
  await invoice(sql, null, null);

  // Noise that must never be counted: another merchant, and live mode of this merchant.
  const o = other.merchantId;
  const oPlan = await insertPlan(sql, o, false, '50000000', 'monthly');
  const oCustomer = await insertCustomer(sql, o, false, '2024-01-15T10:00:00Z');
  const oSub = await insertSub(sql, {
    merchantId: o,
    planId: oPlan,
    customerId: oCustomer,
    status: 'active',
    amount: '50000000',
    createdAt: '2024-01-15T10:00:00Z',
    nextChargeAt: '2024-04-15T10:00:00Z',
  });
  await change(sql, oSub, '2024-02-15T10:00:00Z', { status: 'cancelled' });
  await charge(sql, oSub, 0, '50000000', 'succeeded', '2024-01-15T10:00:00Z', o);
  await session(sql, '2024-01-10T10:00:00Z', 'completed', null, o);
  const livePlan = await insertPlan(sql, m, true, '70000000', 'monthly');
  const liveCustomer = await insertCustomer(sql, m, true, '2024-01-15T10:00:00Z');
  await insertSub(sql, {
    merchantId: m,
    livemode: true,
    planId: livePlan,
    customerId: liveCustomer,
    status: 'active',
    amount: '70000000',
    createdAt: '2024-01-15T10:00:00Z',
    nextChargeAt: '2024-04-15T10:00:00Z',
  });
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const Q1 = 'from=2024-01-01&to=2024-03-31&interval=month';

describe('GET /v1/stats/mrr', () => {
  it('gives starting and ending MRR and every movement per month', async () => {
    const { status, body } = await get(`/v1/stats/mrr?${Q1}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ interval: 'month', from: '2024-01-01', to: '2024-03-31', currency: 'USDC', planId: null });
    // Start: a1 10_000_000 + b1 8_333_333.
    // Jan: + new c1 4_333_333 + expansion 5_000_000 = 27_666_666.
    // Feb: + new f1 10M + d1 20M - contraction 3M - churned (f1 paused 10M + c1 lapsed 4_333_333) = 40_333_333.
    // Mar: + new g1 10M + g2 4_333_333 + reactivation f1 10M - churned (b1 8_333_333 + g1 10M + a1 12M) = 34_333_333.
    expect(body.series).toEqual([
      {
        date: '2024-01-01',
        startingMrr: '18333333',
        newMrr: '4333333',
        expansionMrr: '5000000',
        contractionMrr: '0',
        churnedMrr: '0',
        reactivationMrr: '0',
        netNewMrr: '9333333',
        endingMrr: '27666666',
        customers: '3',
      },
      {
        date: '2024-02-01',
        startingMrr: '27666666',
        newMrr: '30000000',
        expansionMrr: '0',
        contractionMrr: '3000000',
        churnedMrr: '14333333',
        reactivationMrr: '0',
        netNewMrr: '12666667',
        endingMrr: '40333333',
        customers: '3',
      },
      {
        date: '2024-03-01',
        startingMrr: '40333333',
        newMrr: '14333333',
        expansionMrr: '0',
        contractionMrr: '0',
        churnedMrr: '30333333',
        reactivationMrr: '10000000',
        netNewMrr: '-6000000',
        endingMrr: '34333333',
        customers: '3',
      },
    ]);
    expect(body.summary).toEqual({
      startingMrr: '18333333',
      newMrr: '48666666',
      expansionMrr: '5000000',
      contractionMrr: '3000000',
      churnedMrr: '44666666',
      reactivationMrr: '10000000',
      netNewMrr: '16000000',
      endingMrr: '34333333',
      customers: '3',
      arr: '411999996', // 34_333_333 x 12
    });
  });

  it('filters by plan: P1 only (a1 with its two amount changes, f1 paused and resumed, g1)', async () => {
    const { body } = await get(`/v1/stats/mrr?${Q1}&planId=${plans.P1}`);
    // 10M + 5M (a1 up) + 10M (f1) - 3M (a1 down) - 10M (f1 paused) + 10M (g1) + 10M (f1 back) - 10M (g1) - 12M (a1) = 10M.
    expect(body.summary).toMatchObject({
      startingMrr: '10000000',
      newMrr: '20000000',
      expansionMrr: '5000000',
      contractionMrr: '3000000',
      churnedMrr: '32000000',
      reactivationMrr: '10000000',
      endingMrr: '10000000',
      customers: '1',
    });
    expect(body.planId).toBe(plans.P1);
  });

  it('puts a change on 29 February and one on the last second of 31 March in their own days', async () => {
    const { body } = await get('/v1/stats/mrr?from=2024-02-28&to=2024-03-01&interval=day');
    expect(body.series.map((p: { date: string; churnedMrr: string }) => [p.date, p.churnedMrr])).toEqual([
      ['2024-02-28', '0'],
      ['2024-02-29', '4333333'],
      ['2024-03-01', '0'],
    ]);
    const end = await get('/v1/stats/mrr?from=2024-03-31&to=2024-04-01&interval=day');
    expect(end.body.series.map((p: { churnedMrr: string }) => p.churnedMrr)).toEqual(['12000000', '0']);
  });

  it('keeps the balance through a range with no changes, and is zero before any data', async () => {
    const later = await get('/v1/stats/mrr?from=2030-01-01&to=2030-01-31&interval=week');
    expect(later.status).toBe(200);
    expect(later.body.summary).toMatchObject({
      startingMrr: '34333333',
      endingMrr: '34333333',
      newMrr: '0',
      churnedMrr: '0',
      customers: '3',
    });
    expect(later.body.series).toHaveLength(5); // weeks from Tue 1, 7, 14, 21, 28 (from Monday)
    const before = await get('/v1/stats/mrr?from=2020-01-01&to=2020-12-31');
    expect(before.body.summary).toMatchObject({ startingMrr: '0', endingMrr: '0', arr: '0', customers: '0' });
    expect(before.body.series).toHaveLength(12);
  });
});

describe('GET /v1/stats/churn', () => {
  it('counts cancelled and lapsed customers once each, split voluntary/involuntary', async () => {
    const { status, body } = await get(`/v1/stats/churn?${Q1}`);
    expect(status).toBe(200);
    expect(body.series).toEqual([
      // January: nobody churned (e1 was only trialing).
      {
        date: '2024-01-01',
        customersAtStart: '2',
        churnedCustomers: '0',
        voluntaryChurnedCustomers: '0',
        involuntaryChurnedCustomers: '0',
        customerChurnRate: '0.0000',
        mrrAtStart: '18333333',
        churnedMrr: '0',
        voluntaryChurnedMrr: '0',
        involuntaryChurnedMrr: '0',
        mrrChurnRate: '0.0000',
      },
      // February: C lapsed (1/3); F paused is not churn. MRR: 4_333_333 / 27_666_666 = 0.15662... -> 0.1566.
      {
        date: '2024-02-01',
        customersAtStart: '3',
        churnedCustomers: '1',
        voluntaryChurnedCustomers: '0',
        involuntaryChurnedCustomers: '1',
        customerChurnRate: '0.3333',
        mrrAtStart: '27666666',
        churnedMrr: '4333333',
        voluntaryChurnedMrr: '0',
        involuntaryChurnedMrr: '4333333',
        mrrChurnRate: '0.1566',
      },
      // March: B and A cancelled (2/3); G cancelled g1 but still pays. MRR: (8_333_333 + 10M + 12M) / 40_333_333 = 0.75206... -> 0.7521.
      {
        date: '2024-03-01',
        customersAtStart: '3',
        churnedCustomers: '2',
        voluntaryChurnedCustomers: '2',
        involuntaryChurnedCustomers: '0',
        customerChurnRate: '0.6667',
        mrrAtStart: '40333333',
        churnedMrr: '30333333',
        voluntaryChurnedMrr: '30333333',
        involuntaryChurnedMrr: '0',
        mrrChurnRate: '0.7521',
      },
    ]);
    // Whole range: 3 churned (C, B, A) of 2 at the start = 1.5; 34_666_666 / 18_333_333 = 1.89090... -> 1.8909.
    expect(body.summary).toEqual({
      customersAtStart: '2',
      churnedCustomers: '3',
      voluntaryChurnedCustomers: '2',
      involuntaryChurnedCustomers: '1',
      customerChurnRate: '1.5000',
      mrrAtStart: '18333333',
      churnedMrr: '34666666',
      voluntaryChurnedMrr: '30333333',
      involuntaryChurnedMrr: '4333333',
      mrrChurnRate: '1.8909',
    });
  });
});

describe('GET /v1/stats/conversion', () => {
  it('counts sessions, storefront sessions, invoices and trials by cohort', async () => {
    const { status, body } = await get(`/v1/stats/conversion?${Q1}`);
    expect(status).toBe(200);
    // January sessions: 4 direct (2 paid, 1 expired) + 2 invoice sessions (1 paid) + the draft's (open) = 7 created, 3 paid.
    // February: 3 direct (2 paid, 1 expired, 2 of them storefront) + 1 invoice session (paid) = 4 created, 3 paid.
    expect(body.series).toEqual([
      {
        date: '2024-01-01',
        paymentSessions: { created: '7', paid: '3', expired: '1', rate: '0.4286' },
        storefront: { created: '0', paid: '0', expired: '0', rate: '0.0000' },
        invoices: { sent: '2', paid: '1', rate: '0.5000' },
        trials: { started: '2', converted: '1', rate: '0.5000' },
      },
      {
        date: '2024-02-01',
        paymentSessions: { created: '4', paid: '3', expired: '1', rate: '0.7500' },
        storefront: { created: '2', paid: '1', expired: '1', rate: '0.5000' },
        invoices: { sent: '1', paid: '1', rate: '1.0000' },
        trials: { started: '0', converted: '0', rate: '0.0000' },
      },
      {
        date: '2024-03-01',
        paymentSessions: { created: '0', paid: '0', expired: '0', rate: '0.0000' },
        storefront: { created: '0', paid: '0', expired: '0', rate: '0.0000' },
        invoices: { sent: '0', paid: '0', rate: '0.0000' },
        trials: { started: '1', converted: '0', rate: '0.0000' },
      },
    ]);
    // 6 / 11 = 0.54545 -> 0.5455; 2 / 3 invoices; 1 / 3 trials.
    expect(body.summary).toEqual({
      paymentSessions: { created: '11', paid: '6', expired: '2', rate: '0.5455' },
      storefront: { created: '2', paid: '1', expired: '1', rate: '0.5000' },
      invoices: { sent: '3', paid: '2', rate: '0.6667' },
      trials: { started: '3', converted: '1', rate: '0.3333' },
    });
  });
});

describe('GET /v1/stats/ltv', () => {
  it('divides ARPA by the trailing monthly churn and reports cohort revenue', async () => {
    const { status, body } = await get(`/v1/stats/ltv?${Q1}`);
    expect(status).toBe(200);
    // End of March: MRR 34_333_333 over 3 customers (D, F, G): ARPA 11_444_444.
    // Window 2024-01-01..2024-03-31: 2 customers at its start, 3 churned: 3 / (2 x 3) = 0.5.
    // LTV = 11_444_444 x 2 x 3 / 3 = 22_888_888.
    expect(body.summary).toMatchObject({
      mrr: '34333333',
      customers: '3',
      arpa: '11444444',
      windowStart: '2024-01-01',
      customersAtWindowStart: '2',
      churnedCustomersInWindow: '3',
      monthlyChurnRate: '0.5000',
      ltv: '22888888',
    });
    // End of January: window from 2023-11-01, nobody paying then and nobody churned: LTV null.
    expect(body.series[0]).toEqual({
      date: '2024-01-01',
      mrr: '27666666',
      customers: '3',
      arpa: '9222222',
      windowStart: '2023-11-01',
      customersAtWindowStart: '0',
      churnedCustomersInWindow: '0',
      monthlyChurnRate: '0.0000',
      ltv: null,
    });
    // Cohorts: January C, D, E: c1 5 x 1M + d1 2 x 20M (the April charge is after `to`) = 45M over 7 charges.
    // February F: 2 x 10M. March G, H: g1 10M + g2 2 x 1M = 12M over 3 charges.
    expect(body.summary.cohorts).toEqual([
      { cohort: '2024-01-01', customers: '3', revenue: '45000000', charges: '7', revenuePerCustomer: '15000000' },
      { cohort: '2024-02-01', customers: '1', revenue: '20000000', charges: '2', revenuePerCustomer: '20000000' },
      { cohort: '2024-03-01', customers: '2', revenue: '12000000', charges: '3', revenuePerCustomer: '6000000' },
    ]);
  });
});

describe('GET /v1/stats/forecast', () => {
  it('projects scheduled charges and MRR, reduced by the observed churn', async () => {
    const { status, body } = await get(`/v1/stats/forecast?${Q1}&horizon=3`);
    expect(status).toBe(200);
    // Observed: 3 churned of 2 customers over 91 days (31 + 29 + 31):
    // c = 3 x 365 / (2 x 91 x 12) = 1095 / 2184 = 0.50137 -> 0.5014; survival per month 1089 / 2184.
    expect(body.summary.assumptions).toMatchObject({
      horizon: 3,
      observedFrom: '2024-01-01',
      observedTo: '2024-03-31',
      customersAtObservedStart: '2',
      churnedCustomersObserved: '3',
      monthlyChurnRate: '0.5014',
    });
    // Charges: d1 on the 5th (20M); f1 (anchor Jan 31, 2 charges left) on Apr 30 and May 31 (10M);
    // g2 weekly from Apr 6 (1M: 4 in April, 4 in May, 5 in June); h1 from May 10 (20M).
    // April 34M; May 20 + 10 + 4 + 20 = 54M -> x 1089/2184 = 26_925_824; June 20 + 5 + 20 = 45M -> x (1089/2184)^2 = 11_188_271.
    // MRR: April and May d1 + f1 + g2 = 34_333_333; June + h1 = 54_333_333.
    expect(body.series).toEqual([
      {
        date: '2024-04-01',
        monthsAhead: 0,
        survival: '1.0000',
        scheduledCash: '34000000',
        cash: '34000000',
        scheduledMrr: '34333333',
        mrr: '34333333',
      },
      {
        date: '2024-05-01',
        monthsAhead: 1,
        survival: '0.4986',
        scheduledCash: '54000000',
        cash: '26925824',
        scheduledMrr: '34333333',
        mrr: '17119505',
      },
      {
        date: '2024-06-01',
        monthsAhead: 2,
        survival: '0.2486',
        scheduledCash: '45000000',
        cash: '11188271',
        scheduledMrr: '54333333',
        mrr: '13508802',
      },
    ]);
    expect(body.summary).toMatchObject({ mrrNow: '34333333', projectedCash: '72114095', projectedMrrAtEnd: '13508802' });
  });
});

describe('edge cases and access', () => {
  it('answers zeros, not errors, for a merchant with no data', async () => {
    for (const metric of ['mrr', 'churn', 'conversion', 'ltv', 'forecast']) {
      const { status, body } = await get(`/v1/stats/${metric}?${Q1}`, empty.secretKey);
      expect(status, metric).toBe(200);
      expect(body.series.length, metric).toBe(metric === 'forecast' ? 12 : 3); // forecast: default horizon 12
    }
    expect((await get(`/v1/stats/mrr?${Q1}`, empty.secretKey)).body.summary).toMatchObject({
      startingMrr: '0',
      endingMrr: '0',
      arr: '0',
      customers: '0',
    });
    expect((await get(`/v1/stats/churn?${Q1}`, empty.secretKey)).body.summary).toMatchObject({
      customerChurnRate: '0.0000',
      mrrChurnRate: '0.0000',
    });
    expect((await get(`/v1/stats/ltv?${Q1}`, empty.secretKey)).body.summary).toMatchObject({ arpa: '0', ltv: null, cohorts: [] });
    const forecast = await get(`/v1/stats/forecast?${Q1}`, empty.secretKey);
    expect(forecast.body.series).toHaveLength(12);
    expect(forecast.body.summary).toMatchObject({ mrrNow: '0', projectedCash: '0', projectedMrrAtEnd: '0' });
  });

  it('never counts another merchant or the other mode', async () => {
    const o = await get(`/v1/stats/mrr?${Q1}`, other.secretKey);
    // The other merchant: 50M new in January, cancelled in February.
    expect(o.body.summary).toMatchObject({ startingMrr: '0', newMrr: '50000000', churnedMrr: '50000000', endingMrr: '0' });
    const live = await get(`/v1/stats/mrr?${Q1}`, merchant.liveSecretKey);
    expect(live.body.summary).toMatchObject({ startingMrr: '0', newMrr: '70000000', endingMrr: '70000000', customers: '1' });
  });

  it('needs analytics_read', async () => {
    const key = await merchant.keyWithScopes(['subscriptions_read']);
    const { status, body } = await get(`/v1/stats/mrr?${Q1}`, key);
    expect(status).toBe(403);
    expect(body.error.code).toBe('permission_denied');
    const allowed = await merchant.keyWithScopes(['analytics_read']);
    expect((await get(`/v1/stats/churn?${Q1}`, allowed)).status).toBe(200);
  });

  it.each([
    ['from=2024-02-01&to=2024-01-31', 'from'],
    ['from=2023-02-29&to=2023-03-31', 'from'],
    ['from=2024-01-01', 'to'],
    ['from=2024-01-01&to=2027-01-01', 'to'],
    ['from=2024-01-01&to=2025-01-01&interval=day', 'interval'],
    ['from=2024-01-01&to=2024-01-31&interval=year', 'interval'],
    ['from=2024-01-01&to=2024-01-31&currency=EUR', 'currency'],
    ['from=2024-01-01&to=2024-01-31&planId=sub_1', 'planId'],
  ])('refuses %s with invalid_request on %s', async (query, param) => {
    const { status, body } = await get(`/v1/stats/mrr?${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.param).toBe(param);
    expect(body.error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
  });

  it('refuses a forecast horizon beyond 36', async () => {
    const { status, body } = await get(`/v1/stats/forecast?${Q1}&horizon=37`);
    expect(status).toBe(400);
    expect(body.error.param).toBe('horizon');
  });

  it('documents the five endpoints in the OpenAPI document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const paths = response.json().paths;
    for (const metric of ['mrr', 'churn', 'conversion', 'ltv', 'forecast']) {
      expect(paths[`/v1/stats/${metric}`]?.get?.description, metric).toContain('docs/analytics.md');
    }
  });
});
