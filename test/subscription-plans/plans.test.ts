import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const validPlan = { name: 'Pro', amount: '10000000', interval: 'monthly' };

describe('subscription plans', () => {
  it('creates a plan with defaults and reads it back', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(merchant.secretKey),
      payload: validPlan,
    });
    expect(created.statusCode).toBe(200);
    const plan = created.json();
    expect(plan).toMatchObject({
      object: 'subscription_plan',
      name: 'Pro',
      amount: '10000000',
      currency: 'USDC',
      interval: 'monthly',
      intervalCount: 1,
      trialPeriodDays: 0,
      trialEndBehavior: 'dunning',
      livemode: false,
    });
    expect(plan.id).toMatch(/^plan_/);

    const read = await t.app.inject({ method: 'GET', url: `/v1/subscription-plans/${plan.id}`, headers: auth(merchant.secretKey) });
    expect(read.json()).toEqual(plan);

    const publicRead = await t.app.inject({ method: 'GET', url: `/v1/checkout/plans/${plan.id}` });
    expect(publicRead.statusCode).toBe(200);
    expect(publicRead.json()).toEqual({
      id: plan.id,
      name: 'Pro',
      amount: '10000000',
      currency: 'USDC',
      interval: 'monthly',
      intervalCount: 1,
      trialPeriodDays: 0,
      chainIds: null,
      // A fixed plan: no usage prices, no cap beyond its amount (issue 41).
      meteredPrices: null,
      usageCap: null,
      livemode: false,
    });
  });

  it('refuses a plan offered on a chain the mode does not have, naming the entry, and creates nothing', async () => {
    const before = await db.sql`select id from subscription_plans where merchant_id = ${merchant.merchantId}`;
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(merchant.secretKey),
      payload: { ...validPlan, chainIds: [999_999] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'invalid_request', param: 'chainIds.0' });
    expect(await db.sql`select id from subscription_plans where merchant_id = ${merchant.merchantId}`).toHaveLength(before.length);
  });

  it('records subscription_plan.created in the outbox in the same transaction', async () => {
    const created = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/subscription-plans',
        headers: auth(merchant.secretKey),
        payload: { ...validPlan, name: 'Outboxed' },
      })
    ).json();
    const events = await db.sql`select type, merchant_id, livemode, data from events where data->'object'->>'id' = ${created.id}`;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'subscription_plan.created', merchant_id: merchant.merchantId, livemode: false });
  });

  it.each([
    [{ ...validPlan, amount: '0' }, 'amount'],
    [{ ...validPlan, amount: '-5' }, 'amount'],
    [{ ...validPlan, amount: '1.5' }, 'amount'],
    [{ ...validPlan, amount: 100 }, 'amount'],
    [{ ...validPlan, interval: 'hourly' }, 'interval'],
    [{ ...validPlan, intervalCount: 0 }, 'intervalCount'],
    [{ ...validPlan, trialPeriodDays: -1 }, 'trialPeriodDays'],
    [{ ...validPlan, currency: 'EUR' }, 'currency'],
    [{ amount: '1', interval: 'daily' }, 'name'],
  ])('refuses %j with invalid_request on %s and creates nothing', async (payload, param) => {
    const before = await db.sql`select count(*)::int as n from subscription_plans`;
    const response = await t.app.inject({ method: 'POST', url: '/v1/subscription-plans', headers: auth(merchant.secretKey), payload });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe(param);
    expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
    const after = await db.sql`select count(*)::int as n from subscription_plans`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('is scoped to one merchant and one mode', async () => {
    const plan = (
      await t.app.inject({ method: 'POST', url: '/v1/subscription-plans', headers: auth(merchant.secretKey), payload: validPlan })
    ).json();
    const live = await t.app.inject({ method: 'GET', url: `/v1/subscription-plans/${plan.id}`, headers: auth(merchant.liveSecretKey) });
    expect(live.statusCode).toBe(404);
    expect(live.json().error.code).toBe('not_found');
    const other = await seedMerchant(db.sql, 'Other');
    const foreign = await t.app.inject({ method: 'GET', url: `/v1/subscription-plans/${plan.id}`, headers: auth(other.secretKey) });
    expect(foreign.statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: auth(other.secretKey) });
    expect(list.json().data).toEqual([]);
  });

  describe('update and archive', () => {
    const post = (url: string, payload?: object, key = merchant.secretKey) =>
      t.app.inject({ method: 'POST', url, headers: auth(key), ...(payload ? { payload } : {}) });
    const planEvents = async (id: string) =>
      (await db.sql<{ type: string }[]>`select type from events where data->'object'->>'id' = ${id} order by created_at, id`).map(
        (e) => e.type,
      );

    it('renames a plan, records subscription_plan.updated, and refuses any change of its terms', async () => {
      const plan = (await post('/v1/subscription-plans', { ...validPlan, name: 'Starter' })).json();
      const renamed = await post(`/v1/subscription-plans/${plan.id}`, { name: 'Starter (2026)' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ id: plan.id, name: 'Starter (2026)', amount: plan.amount, archived: false, archivedAt: null });

      const unchanged = await post(`/v1/subscription-plans/${plan.id}`, { name: 'Starter (2026)' });
      expect(unchanged.json().name).toBe('Starter (2026)');
      expect(await planEvents(plan.id)).toEqual(['subscription_plan.created', 'subscription_plan.updated']);

      const terms = await post(`/v1/subscription-plans/${plan.id}`, { amount: '1' });
      expect(terms.statusCode).toBe(400);
      expect(terms.json().error).toMatchObject({ code: 'invalid_request' });
      expect(
        (await t.app.inject({ method: 'GET', url: `/v1/subscription-plans/${plan.id}`, headers: auth(merchant.secretKey) })).json().amount,
      ).toBe(plan.amount);
    });

    it('takes a trialEndBehavior at creation and as a change (the merchant policy, not a signed term); refuses an unknown one', async () => {
      const plan = (
        await post('/v1/subscription-plans', { ...validPlan, name: 'Trial', trialPeriodDays: 14, trialEndBehavior: 'cancel' })
      ).json();
      expect(plan.trialEndBehavior).toBe('cancel');
      const changed = await post(`/v1/subscription-plans/${plan.id}`, { trialEndBehavior: 'pause' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ trialEndBehavior: 'pause', name: 'Trial' });
      expect(await planEvents(plan.id)).toEqual(['subscription_plan.created', 'subscription_plan.updated']);

      for (const [url, payload] of [
        ['/v1/subscription-plans', { ...validPlan, trialEndBehavior: 'lapse' }],
        [`/v1/subscription-plans/${plan.id}`, { trialEndBehavior: 'lapse' }],
      ] as const) {
        const refused = await post(url, payload);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().error).toMatchObject({ code: 'invalid_request', param: 'trialEndBehavior' });
        expect(refused.json().error.details.issues.map((i: { path: string }) => i.path)).toEqual(['trialEndBehavior']);
      }
      const [row] = await db.sql`select trial_end_behavior from subscription_plans where id = ${plan.id}`;
      expect(row!.trial_end_behavior).toBe('pause');
    });

    it('archives a plan once: no more changes, no new enrolments, filtered in lists', async () => {
      const plan = (await post('/v1/subscription-plans', { ...validPlan, name: 'Retired' })).json();
      const archived = await post(`/v1/subscription-plans/${plan.id}/archive`);
      expect(archived.statusCode).toBe(200);
      expect(archived.json()).toMatchObject({ id: plan.id, archived: true });
      expect(Date.parse(archived.json().archivedAt)).not.toBeNaN();

      const again = await post(`/v1/subscription-plans/${plan.id}/archive`);
      expect(again.statusCode).toBe(403);
      expect(again.json().error.code).toBe('session_invalid_state');
      const rename = await post(`/v1/subscription-plans/${plan.id}`, { name: 'Back' });
      expect(rename.json().error.code).toBe('session_invalid_state');
      expect(await planEvents(plan.id)).toEqual(['subscription_plan.created', 'subscription_plan.archived']);

      const offer = await t.app.inject({ method: 'GET', url: `/checkout/plans/${plan.id}/enrolment` });
      expect(offer.json().error).toMatchObject({ code: 'session_invalid_state', param: 'planId' });
      const product = await post('/v1/storefront/products', { name: 'Retired box', planId: plan.id });
      expect(product.json().error).toMatchObject({ code: 'session_invalid_state', param: 'planId' });

      const list = (query: string) =>
        t.app
          .inject({ method: 'GET', url: `/v1/subscription-plans?${query}`, headers: auth(merchant.secretKey) })
          .then((r) => r.json().data.map((p: { id: string }) => p.id));
      expect(await list('archived=true&limit=100')).toContain(plan.id);
      expect(await list('archived=false&limit=100')).not.toContain(plan.id);
    });

    it('needs plans_write and the plan of this merchant and mode', async () => {
      const plan = (await post('/v1/subscription-plans', validPlan)).json();
      const live = await post(`/v1/subscription-plans/${plan.id}/archive`, undefined, merchant.liveSecretKey);
      expect(live.statusCode).toBe(404);
      const publishable = await post(`/v1/subscription-plans/${plan.id}`, { name: 'x' }, merchant.publishableKey);
      expect([401, 403]).toContain(publishable.statusCode);
      expect(
        (await t.app.inject({ method: 'GET', url: `/v1/subscription-plans/${plan.id}`, headers: auth(merchant.secretKey) })).json(),
      ).toMatchObject({ name: validPlan.name, archived: false });
    });
  });
});
