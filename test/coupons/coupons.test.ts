// Coupons, promotion codes and a subscription's discount over the real app and database (issue 40,
// item 2): the resources, the envelope for bad input, the discount on a subscription with its events,
// MRR counting the discounted amount, and a promotion code of max 1 redeemed exactly once under 20
// concurrent applications. Subscriptions are seeded through the repos the indexer uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers/repo.js';
import { newId } from '../../src/ids.js';
import { insertSubscriptionIfAbsent } from '../../src/subscriptions/repo.js';
import { upsertChargeAttempt } from '../../src/subscription-charges/repo.js';
import { createSql } from '../../src/db/client.js';
import { until } from '../support/until.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let planId: string;
let seq = 0;

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, key = merchant.secretKey) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });

async function seedSubscription(onPlan = planId): Promise<string> {
  // Its own number, taken before any await: 20 seeded at once must be 20 subscriptions (the on-chain id
  // is the key insertSubscriptionIfAbsent finds an existing one by).
  const n = ++seq;
  const wallet = `0x${n.toString(16).padStart(40, '0')}`;
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
    planId: onPlan,
    customerId: customer.id,
    status: 'active',
    chainId: '31337',
    contractAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    onChainId: String(n),
    subscriberAddress: wallet,
    tokenAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    amount: '10000000',
    periodSeconds: String(28 * 86_400),
    periods: 0,
    firstPeriodStart: new Date('2027-01-31T00:00:00Z'),
    trialEnd: null,
    nextChargeAt: new Date('2027-01-31T00:00:00Z'),
    createdTxHash: null,
  });
  return id;
}

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other');
  const plan = await api('POST', '/v1/subscription-plans', { name: 'Monthly', amount: '10000000', interval: 'monthly' });
  planId = plan.json().id;
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('coupons and promotion codes', () => {
  it('creates, retrieves, updates, lists and deletes a coupon; another merchant sees none of it', async () => {
    const created = await api('POST', '/v1/coupons', {
      name: 'Launch',
      percentOff: 12.5,
      duration: 'repeating',
      durationInPeriods: 3,
      appliesTo: { planIds: [planId] },
      metadata: { campaign: 'spring' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const coupon = created.json();
    expect(coupon).toMatchObject({
      object: 'coupon',
      percentOff: 12.5,
      amountOff: null,
      duration: 'repeating',
      durationInPeriods: 3,
      timesRedeemed: 0,
      valid: true,
      appliesTo: { planIds: [planId] },
      metadata: { campaign: 'spring' },
    });
    const updated = await api('POST', `/v1/coupons/${coupon.id}`, { name: 'Spring', metadata: { campaign: '', team: 'growth' } });
    expect(updated.json()).toMatchObject({ name: 'Spring', metadata: { team: 'growth' } });
    expect((await api('GET', `/v1/coupons/${coupon.id}`)).json().name).toBe('Spring');
    expect((await api('GET', '/v1/coupons')).json().data.map((c: { id: string }) => c.id)).toContain(coupon.id);
    expect((await api('GET', `/v1/coupons/${coupon.id}`, undefined, other.secretKey)).statusCode).toBe(404);
    const deleted = await api('DELETE', `/v1/coupons/${coupon.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ id: coupon.id, object: 'coupon', deleted: true });
    expect((await api('GET', `/v1/coupons/${coupon.id}`)).statusCode).toBe(404);
    const types = await db.sql<{ type: string }[]>`select type from events where data->'object'->>'id' = ${coupon.id} order by created_at`;
    expect(types.map((e) => e.type)).toEqual(['coupon.created', 'coupon.updated', 'coupon.deleted']);
  });

  it('refuses bad input with the envelope and creates nothing', async () => {
    const before = (await db.sql`select count(*)::int as n from coupons`)[0]!.n;
    for (const [payload, param] of [
      [{ duration: 'once' }, 'percentOff'],
      [{ percentOff: 10, amountOff: '5', duration: 'once' }, 'percentOff'],
      [{ percentOff: 12.345, duration: 'once' }, 'percentOff'],
      [{ percentOff: 100, duration: 'once' }, 'percentOff'],
      [{ percentOff: 10, duration: 'repeating' }, 'durationInPeriods'],
      [{ amountOff: '1.5', duration: 'forever' }, 'amountOff'],
      [{ percentOff: 10, duration: 'once', appliesTo: { planIds: ['plan_01J00000000000000000000000'] } }, 'appliesTo.planIds.0'],
    ] as const) {
      const response = await api('POST', '/v1/coupons', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
      expect(response.json().error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
    }
    expect((await db.sql`select count(*)::int as n from coupons`)[0]!.n).toBe(before);
  });

  it('codes are unique per merchant and mode whatever the case', async () => {
    const coupon = (await api('POST', '/v1/coupons', { percentOff: 10, duration: 'forever' })).json();
    const first = await api('POST', '/v1/promotion-codes', { coupon: coupon.id, code: 'Welcome10' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ object: 'promotion_code', code: 'Welcome10', coupon: coupon.id, active: true, timesRedeemed: 0 });
    const again = await api('POST', '/v1/promotion-codes', { coupon: coupon.id, code: 'WELCOME10' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.param).toBe('code');
    expect((await api('GET', '/v1/promotion-codes?code=welcome10')).json().data.map((c: { id: string }) => c.id)).toEqual([
      first.json().id,
    ]);
    const generated = await api('POST', '/v1/promotion-codes', { coupon: coupon.id });
    expect(generated.json().code).toMatch(/^[A-Z2-9]{8}$/);
    const inactive = await api('POST', `/v1/promotion-codes/${first.json().id}`, { active: false });
    expect(inactive.json().active).toBe(false);
  });
});

describe("a subscription's discount", () => {
  it('is applied, shown, counted in MRR at the discounted amount, and removed, with its events', async () => {
    const subscriptionId = await seedSubscription();
    const coupon = (
      await api('POST', '/v1/coupons', { name: '20% x3', percentOff: 20, duration: 'repeating', durationInPeriods: 3 })
    ).json();
    const applied = await api('POST', `/v1/subscriptions/${subscriptionId}/discount`, { coupon: coupon.id });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().discount).toMatchObject({
      object: 'discount',
      coupon: { id: coupon.id, percentOff: 20, duration: 'repeating', durationInPeriods: 3 },
      promotionCode: null,
      periodsRemaining: 3,
      end: '2027-04-30T00:00:00.000Z',
    });
    expect((await api('GET', `/v1/subscriptions/${subscriptionId}`)).json().discount.id).toBe(applied.json().discount.id);
    expect((await api('GET', `/v1/coupons/${coupon.id}`)).json().timesRedeemed).toBe(1);
    // MRR: 10 USDC monthly, 8 under the discount (subscription_mrr_changes: new at 10, contraction to 8).
    const mrr = await db.sql<{ kind: string; mrrAfter: string }[]>`
      select kind, mrr_after::text as "mrrAfter" from subscription_mrr_changes where subscription_id = ${subscriptionId} order by id`;
    expect(mrr).toEqual([
      { kind: 'new', mrrAfter: '10000000' },
      { kind: 'contraction', mrrAfter: '8000000' },
    ]);

    const removed = await api('DELETE', `/v1/subscriptions/${subscriptionId}/discount`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().discount).toBeNull();
    expect((await api('DELETE', `/v1/subscriptions/${subscriptionId}/discount`)).json().error.code).toBe('session_invalid_state');
    const events = await db.sql<{ type: string }[]>`
      select type from events where data->'subscription'->>'id' = ${subscriptionId} order by created_at`;
    expect(events.map((e) => e.type)).toEqual(['customer.discount.created', 'customer.discount.deleted']);
    const after = await db.sql<{ mrrAfter: string }[]>`
      select mrr_after::text as "mrrAfter" from subscription_mrr_changes where subscription_id = ${subscriptionId} order by id desc limit 1`;
    expect(after[0]!.mrrAfter).toBe('10000000');
  });

  it('counts the discounted amount in the merchant’s MRR and forecast, and the full amount again once removed', async () => {
    // A plan of its own, so the stats filtered by it see this subscription only.
    const plan = (await api('POST', '/v1/subscription-plans', { name: 'MRR check', amount: '10000000', interval: 'monthly' })).json();
    const subscriptionId = await seedSubscription(plan.id);
    const coupon = (await api('POST', '/v1/coupons', { percentOff: 25, duration: 'forever' })).json();
    expect((await api('POST', `/v1/subscriptions/${subscriptionId}/discount`, { coupon: coupon.id })).statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const range = `from=${today}&to=${today}&interval=day&planId=${plan.id}`;
    const mrr = await api('GET', `/v1/stats/mrr?${range}`);
    expect(mrr.statusCode, mrr.body).toBe(200);
    expect(mrr.json().series.at(-1)).toMatchObject({ endingMrr: '7500000', newMrr: '10000000', contractionMrr: '2500000' });
    const forecast = await api('GET', `/v1/stats/forecast?${range}&horizon=3`);
    expect(forecast.statusCode, forecast.body).toBe(200);
    expect(forecast.json().summary.mrrNow).toBe('7500000');
    expect(forecast.json().series.map((p: { scheduledMrr: string }) => p.scheduledMrr)).toEqual(['7500000', '7500000', '7500000']);

    expect((await api('DELETE', `/v1/subscriptions/${subscriptionId}/discount`)).statusCode).toBe(200);
    expect((await api('GET', `/v1/stats/mrr?${range}`)).json().series.at(-1).endingMrr).toBe('10000000');
    expect((await api('GET', `/v1/stats/forecast?${range}&horizon=1`)).json().series[0].scheduledMrr).toBe('10000000');
  });

  it('gives a pending charge its discount line but no receipt, and another merchant neither', async () => {
    const subscriptionId = await seedSubscription();
    const coupon = (await api('POST', '/v1/coupons', { amountOff: '1500000', duration: 'once' })).json();
    expect((await api('POST', `/v1/subscriptions/${subscriptionId}/discount`, { coupon: coupon.id })).statusCode).toBe(200);
    const discountId = (await api('GET', `/v1/subscriptions/${subscriptionId}`)).json().discount.id;
    const charge = await upsertChargeAttempt(db.sql, {
      id: newId('subscriptionCharge'),
      merchantId: merchant.merchantId,
      livemode: false,
      subscriptionId,
      periodIndex: 0,
      periodStart: new Date('2027-01-31T00:00:00Z'),
      amount: '8500000',
      attempt: 1,
      discount: { id: discountId, amountOff: '1500000' },
    });
    const read = await api('GET', `/v1/subscription-charges/${charge.id}`);
    expect(read.json().lines).toEqual([
      { kind: 'subscription', description: 'Monthly', amount: '10000000' },
      { kind: 'discount', description: 'Discount (1.50 USDC off)', amount: '-1500000' },
    ]);
    const receipt = await api('GET', `/v1/subscription-charges/${charge.id}/receipt`);
    expect(receipt.statusCode).toBe(403);
    expect(receipt.json().error).toMatchObject({ code: 'session_invalid_state', param: 'id' });
    const foreign = await api('GET', `/v1/subscription-charges/${charge.id}/receipt`, undefined, other.secretKey);
    expect(foreign.statusCode).toBe(404);
    expect((await api('GET', '/v1/subscription-charges/nope/receipt')).json().error).toMatchObject({
      code: 'not_found',
      param: 'id',
    });
  });

  it('refuses a coupon that cannot be redeemed, with the envelope, changing nothing', async () => {
    const subscriptionId = await seedSubscription();
    const otherPlan = (await api('POST', '/v1/subscription-plans', { name: 'Other', amount: '5000000', interval: 'monthly' })).json().id;
    const restricted = (await api('POST', '/v1/coupons', { percentOff: 10, duration: 'once', appliesTo: { planIds: [otherPlan] } })).json();
    const tooBig = (await api('POST', '/v1/coupons', { amountOff: '10000000', duration: 'once' })).json();
    const expired = (await api('POST', '/v1/coupons', { percentOff: 10, duration: 'once', redeemBy: '2020-01-01T00:00:00Z' })).json();
    for (const body of [{ coupon: restricted.id }, { coupon: tooBig.id }, { coupon: expired.id }, {}, { coupon: 'nope' }]) {
      const response = await api('POST', `/v1/subscriptions/${subscriptionId}/discount`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
    expect((await api('GET', `/v1/subscriptions/${subscriptionId}`)).json().discount).toBeNull();
    const readOnly = await api('POST', `/v1/subscriptions/${subscriptionId}/discount`, { coupon: restricted.id }, merchant.publishableKey);
    expect(readOnly.statusCode).toBeGreaterThanOrEqual(401);
  });

  it('redeems a promotion code of max 1 redemption exactly once under 20 concurrent applications', async () => {
    const coupon = (await api('POST', '/v1/coupons', { percentOff: 50, duration: 'once' })).json();
    const code = (await api('POST', '/v1/promotion-codes', { coupon: coupon.id, code: 'ONLYONCE', maxRedemptions: 1 })).json();
    const subscriptions = await Promise.all(Array.from({ length: 20 }, () => seedSubscription()));
    // The code's row is held locked on a connection of its own while the 20 start, so they all read it
    // unredeemed and queue on the same row: only the conditional UPDATE decides which one redeems it.
    const gate = createSql(db.url, { max: 1 });
    let pending: Promise<{ statusCode: number }>[] = [];
    await gate.begin(async (tx) => {
      await tx`select 1 from promotion_codes where id = ${code.id} for update`;
      pending = subscriptions.map((id) => api('POST', `/v1/subscriptions/${id}/discount`, { promotionCode: code.id }));
      // Polled on the gate's own connection: the app's pool is busy with the queued applications.
      await until(
        async () => (await tx<{ n: number }[]>`select count(*)::int as n from pg_locks where not granted`)[0]!.n,
        (waiting) => waiting >= 5,
        'applications queued on the code',
        { timeoutMs: 10_000, intervalMs: 20 },
      );
    });
    await gate.end();
    const responses = await Promise.all(pending);
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    expect((await api('GET', `/v1/promotion-codes/${code.id}`)).json().timesRedeemed).toBe(1);
    const [discounts] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from subscription_discounts where promotion_code_id = ${code.id}`;
    expect(discounts!.n).toBe(1);
  });
});
