// Routes of subscriptions and subscription charges over the real app and
// database. The rows are seeded through the repos the workflow's activities
// use (the workflow itself is tested in test/workflows/subscription.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers/repo.js';
import { newId } from '../../src/ids.js';
import { upsertChargeAttempt, markChargeSucceeded } from '../../src/subscription-charges/repo.js';
import { insertSubscriptionIfAbsent, updateSubscription, type SubscriptionStatus } from '../../src/subscriptions/repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let planA: string;
let planB: string;
let onChainSeq = 0;

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function createPlan(key: string, name: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/subscription-plans',
    headers: auth(key),
    payload: { name, amount: '5000000', interval: 'monthly' },
  });
  return response.json().id;
}

async function seedSubscription(
  owner: SeededMerchant,
  planId: string,
  status: SubscriptionStatus = 'active',
  livemode = false,
): Promise<string> {
  const wallet = `0x${(++onChainSeq).toString(16).padStart(40, '0')}`;
  const customer = await upsertCustomer(db.sql, {
    id: newId('customer'),
    merchantId: owner.merchantId,
    livemode,
    walletAddress: wallet,
    email: 'c@example.com',
  });
  const { id } = await insertSubscriptionIfAbsent(db.sql, {
    id: newId('subscription'),
    merchantId: owner.merchantId,
    livemode,
    planId,
    customerId: customer.id,
    status: 'active',
    chainId: '31337',
    contractAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    onChainId: String(onChainSeq),
    subscriberAddress: wallet,
    tokenAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    amount: '5000000',
    periodSeconds: String(28 * 86_400),
    periods: 12,
    firstPeriodStart: new Date('2027-01-31T00:00:00Z'),
    trialEnd: null,
    nextChargeAt: new Date('2027-01-31T00:00:00Z'),
    createdTxHash: `0x${'ab'.repeat(32)}`,
  });
  if (status !== 'active') await updateSubscription(db.sql, id, { status }, { notIn: [] });
  return id;
}

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other');
  planA = await createPlan(merchant.secretKey, 'A');
  planB = await createPlan(merchant.secretKey, 'B');
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('subscriptions', () => {
  it('reads a subscription with its customer and on-chain facts', async () => {
    const id = await seedSubscription(merchant, planA);
    const response = await t.app.inject({ method: 'GET', url: `/v1/subscriptions/${id}`, headers: auth(merchant.secretKey) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      id,
      object: 'subscription',
      planId: planA,
      status: 'active',
      amount: '5000000',
      currency: 'USDC',
      periods: 12,
      firstPeriodStart: '2027-01-31T00:00:00.000Z',
      livemode: false,
      onChain: { chainId: '31337', periodSeconds: String(28 * 86_400) },
    });
    expect(body.customer.id).toMatch(/^cus_/);
    expect(body.customer.email).toBe('c@example.com');
  });

  it('is not_found for another merchant or the other mode, invalid_request for a malformed id', async () => {
    const id = await seedSubscription(merchant, planA);
    for (const key of [other.secretKey, merchant.liveSecretKey]) {
      const response = await t.app.inject({ method: 'GET', url: `/v1/subscriptions/${id}`, headers: auth(key) });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    // Ids are opaque: one of another shape does not exist either.
    const malformed = await t.app.inject({ method: 'GET', url: '/v1/subscriptions/plan_123', headers: auth(merchant.secretKey) });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().error.code).toBe('not_found');
  });

  it('lists by status and plan, newest first, with cursor pages', async () => {
    const atRisk = await seedSubscription(merchant, planB, 'at_risk');
    const activeB = await seedSubscription(merchant, planB, 'active');
    const byStatus = (
      await t.app.inject({ method: 'GET', url: '/v1/subscriptions?status=at_risk', headers: auth(merchant.secretKey) })
    ).json();
    expect(byStatus.data.map((s: { id: string }) => s.id)).toEqual([atRisk]);
    const byPlan = (
      await t.app.inject({ method: 'GET', url: `/v1/subscriptions?planId=${planB}`, headers: auth(merchant.secretKey) })
    ).json();
    expect(byPlan.data.map((s: { id: string }) => s.id)).toEqual([activeB, atRisk]);

    const first = (
      await t.app.inject({ method: 'GET', url: `/v1/subscriptions?planId=${planB}&limit=1`, headers: auth(merchant.secretKey) })
    ).json();
    expect(first).toMatchObject({ hasMore: true, data: [{ id: activeB }] });
    const second = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/subscriptions?planId=${planB}&limit=1&cursor=${first.nextCursor}`,
        headers: auth(merchant.secretKey),
      })
    ).json();
    expect(second).toMatchObject({ hasMore: false, nextCursor: '', data: [{ id: atRisk }] });

    const bad = await t.app.inject({ method: 'GET', url: '/v1/subscriptions?status=sleeping', headers: auth(merchant.secretKey) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.param).toBe('status');
    const foreign = (await t.app.inject({ method: 'GET', url: '/v1/subscriptions', headers: auth(other.secretKey) })).json();
    expect(foreign.data).toEqual([]);
  });

  it('cancel needs subscriptions_write: a subscriptions_read key gets permission_denied and changes nothing', async () => {
    const id = await seedSubscription(merchant, planA);
    const readOnly = await merchant.keyWithScopes(['subscriptions_read']);
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${id}/cancel`,
      headers: auth(readOnly),
      payload: { reason: 'x' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('permission_denied');
    const read = await t.app.inject({ method: 'GET', url: `/v1/subscriptions/${id}`, headers: auth(readOnly) });
    expect(read.json().status).toBe('active');
  });

  it('cancels once, records subscription.cancelled, and refuses a second cancel with session_invalid_state', async () => {
    const id = await seedSubscription(merchant, planA);
    const writer = await merchant.keyWithScopes(['subscriptions_write']);
    const first = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${id}/cancel`,
      headers: auth(writer),
      payload: { reason: 'too expensive' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      id,
      status: 'cancelled',
      cancelReason: 'too expensive',
      cancelledBy: 'merchant',
      nextChargeAt: null,
    });
    expect(first.json().cancelledAt).toBeTruthy();

    const second = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${id}/cancel`,
      headers: auth(writer),
      payload: { reason: 'again' },
    });
    expect(second.statusCode).toBe(403);
    expect(second.json().error.code).toBe('session_invalid_state');

    const events = await db.sql`select type from events where type = 'subscription.cancelled' and data->'object'->>'id' = ${id}`;
    expect(events).toHaveLength(1);
    const [row] = await db.sql`select cancel_reason from subscriptions where id = ${id}`;
    expect(row!.cancel_reason).toBe('too expensive');
  });

  it('cancels without a body', async () => {
    const id = await seedSubscription(merchant, planA, 'at_risk');
    const response = await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${id}/cancel`, headers: auth(merchant.secretKey) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'cancelled', cancelReason: null });
  });

  it('cancels a completed subscription: the spec calls only cancelled and lapsed terminal', async () => {
    const id = await seedSubscription(merchant, planA, 'completed');
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${id}/cancel`,
      headers: auth(merchant.secretKey),
      payload: { reason: 'closing the account' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id, status: 'cancelled', cancelReason: 'closing the account', cancelledBy: 'merchant' });
    const events = await db.sql`select type from events where type = 'subscription.cancelled' and data->'object'->>'id' = ${id}`;
    expect(events).toHaveLength(1);
  });

  it.each(['lapsed', 'cancelled'] as const)('refuses to cancel a %s subscription', async (status) => {
    const id = await seedSubscription(merchant, planA, status);
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${id}/cancel`,
      headers: auth(merchant.secretKey),
      payload: {},
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('session_invalid_state');
    const [row] = await db.sql`select status from subscriptions where id = ${id}`;
    expect(row!.status).toBe(status);
  });

  it('pauses an active subscription and resumes it; other states and read-only keys are refused', async () => {
    const id = await seedSubscription(merchant, planA);
    const readOnly = await merchant.keyWithScopes(['subscriptions_read']);
    const denied = await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${id}/pause`, headers: auth(readOnly) });
    expect(denied.json().error.code).toBe('permission_denied');

    const paused = await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${id}/pause`, headers: auth(merchant.secretKey) });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ id, status: 'paused', nextChargeAt: null });
    const again = await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${id}/pause`, headers: auth(merchant.secretKey) });
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('session_invalid_state');

    const resumed = await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${id}/resume`, headers: auth(merchant.secretKey) });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().status).toBe('active');
    const twice = await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${id}/resume`, headers: auth(merchant.secretKey) });
    expect(twice.json().error.code).toBe('session_invalid_state');

    const lapsed = await seedSubscription(merchant, planA, 'lapsed');
    const refused = await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${lapsed}/pause`, headers: auth(merchant.secretKey) });
    expect(refused.json().error.code).toBe('session_invalid_state');
  });

  it("refuses an invalid cancel body and another merchant's subscription", async () => {
    const id = await seedSubscription(merchant, planA);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${id}/cancel`,
      headers: auth(merchant.secretKey),
      payload: { reason: 'x'.repeat(501) },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.param).toBe('reason');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${id}/cancel`,
      headers: auth(other.secretKey),
      payload: {},
    });
    expect(foreign.statusCode).toBe(404);
    const [row] = await db.sql`select status from subscriptions where id = ${id}`;
    expect(row!.status).toBe('active');
  });
});

describe('cancel at period end', () => {
  const post = (url: string, key: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: auth(key), ...(payload ? { payload } : {}) });
  const updatedEvents = (id: string) =>
    db.sql<{ data: { object: Record<string, unknown>; previousAttributes: Record<string, unknown> } }[]>`
      select data from events where type = 'subscription.updated' and data->'object'->>'id' = ${id} order by id`;

  it('sets cancelAtPeriodEnd with cancelAt at the next charge and the details, records subscription.updated; undo clears them', async () => {
    const id = await seedSubscription(merchant, planA);
    const scheduled = await post(`/v1/subscriptions/${id}/cancel`, merchant.secretKey, {
      atPeriodEnd: true,
      reason: 'moving to another tool',
      feedback: 'switched_service',
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({
      id,
      status: 'active',
      cancelAtPeriodEnd: true,
      cancelAt: '2027-01-31T00:00:00.000Z',
      cancellationDetails: { requestedBy: 'merchant', reason: 'moving to another tool', feedback: 'switched_service' },
      nextChargeAt: '2027-01-31T00:00:00.000Z',
      cancelledAt: null,
      cancelReason: null,
    });
    const again = await post(`/v1/subscriptions/${id}/cancel`, merchant.secretKey, { atPeriodEnd: true });
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('session_invalid_state');

    const undone = await post(`/v1/subscriptions/${id}/uncancel`, merchant.secretKey);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, cancelAt: null, cancellationDetails: null });
    const twice = await post(`/v1/subscriptions/${id}/uncancel`, merchant.secretKey);
    expect(twice.statusCode).toBe(403);
    expect(twice.json().error.code).toBe('session_invalid_state');

    const events = await updatedEvents(id);
    expect(events.map((e) => [e.data.object.cancelAtPeriodEnd, e.data.previousAttributes])).toEqual([
      [true, { cancelAtPeriodEnd: false, cancelAt: null, cancellationDetails: null }],
      [
        false,
        {
          cancelAtPeriodEnd: true,
          cancelAt: '2027-01-31T00:00:00.000Z',
          cancellationDetails: { requestedBy: 'merchant', reason: 'moving to another tool', feedback: 'switched_service' },
        },
      ],
    ]);
    expect(await db.sql`select 1 from events where type = 'subscription.cancelled' and data->'object'->>'id' = ${id}`).toHaveLength(0);
  });

  it('a cancel now replaces a scheduled one', async () => {
    const id = await seedSubscription(merchant, planA);
    await post(`/v1/subscriptions/${id}/cancel`, merchant.secretKey, { atPeriodEnd: true });
    const now = await post(`/v1/subscriptions/${id}/cancel`, merchant.secretKey, { reason: 'fraud', feedback: 'other' });
    expect(now.statusCode, now.body).toBe(200);
    expect(now.json()).toMatchObject({
      status: 'cancelled',
      cancelAtPeriodEnd: false,
      cancelAt: null,
      cancelReason: 'fraud',
      cancellationDetails: { requestedBy: 'merchant', reason: 'fraud', feedback: 'other' },
    });
    const undo = await post(`/v1/subscriptions/${id}/uncancel`, merchant.secretKey);
    expect(undo.json().error.code).toBe('session_invalid_state');
  });

  it.each(['at_risk', 'paused', 'cancelled', 'lapsed', 'completed'] as const)(
    'refuses to schedule the cancel of a %s subscription and changes nothing',
    async (status) => {
      const id = await seedSubscription(merchant, planA, status);
      const response = await post(`/v1/subscriptions/${id}/cancel`, merchant.secretKey, { atPeriodEnd: true });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('session_invalid_state');
      const [row] = await db.sql`select status, cancel_at_period_end from subscriptions where id = ${id}`;
      expect(row).toEqual({ status, cancel_at_period_end: false });
    },
  );

  it('refuses one with no next period (its authorised periods end with the current one)', async () => {
    const id = await seedSubscription(merchant, planA);
    await updateSubscription(db.sql, id, { nextChargeAt: null });
    const response = await post(`/v1/subscriptions/${id}/cancel`, merchant.secretKey, { atPeriodEnd: true });
    expect(response.json().error.code).toBe('session_invalid_state');
  });

  it('refuses bad input with the envelope, read-only keys and other merchants, changing nothing', async () => {
    const id = await seedSubscription(merchant, planA);
    const bad = await post(`/v1/subscriptions/${id}/cancel`, merchant.secretKey, { atPeriodEnd: 'yes', feedback: 'bored' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_request');
    expect(
      bad
        .json()
        .error.details.issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(['atPeriodEnd', 'feedback']);
    const readOnly = await merchant.keyWithScopes(['subscriptions_read']);
    expect((await post(`/v1/subscriptions/${id}/cancel`, readOnly, { atPeriodEnd: true })).json().error.code).toBe('permission_denied');
    expect((await post(`/v1/subscriptions/${id}/uncancel`, readOnly)).json().error.code).toBe('permission_denied');
    expect((await post(`/v1/subscriptions/${id}/cancel`, other.secretKey, { atPeriodEnd: true })).statusCode).toBe(404);
    expect((await post(`/v1/subscriptions/${id}/uncancel`, other.secretKey)).statusCode).toBe(404);
    expect((await post(`/v1/subscriptions/sub_nope/uncancel`, merchant.secretKey)).json().error.code).toMatch(/invalid_request|not_found/);
    const [row] = await db.sql`select status, cancel_at_period_end from subscriptions where id = ${id}`;
    expect(row).toEqual({ status: 'active', cancel_at_period_end: false });
    expect(await updatedEvents(id)).toHaveLength(0);
  });
});

describe('subscription metadata', () => {
  const post = (url: string, key: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: auth(key), ...(payload ? { payload } : {}) });
  const updatedEvents = (id: string) =>
    db.sql<{ data: { object: Record<string, unknown>; previousAttributes: Record<string, unknown> } }[]>`
      select data from events where type = 'subscription.updated' and data->'object'->>'id' = ${id} order by id`;
  const listed = async (query: string) =>
    (
      (await t.app.inject({ method: 'GET', url: `/v1/subscriptions?${query}`, headers: auth(merchant.secretKey) })).json().data as {
        id: string;
      }[]
    ).map((s) => s.id);

  it('POST /v1/subscriptions/{id} merges metadata, records subscription.updated with the previous metadata, and lists by it', async () => {
    const id = await seedSubscription(merchant, planA);
    expect((await post(`/v1/subscriptions/${id}`, merchant.secretKey, {})).json().metadata).toEqual({});
    const set = await post(`/v1/subscriptions/${id}`, merchant.secretKey, { metadata: { account: 'ACME-7', tier: 'gold' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ id, status: 'active', metadata: { account: 'ACME-7', tier: 'gold' } });
    const merged = await post(`/v1/subscriptions/${id}`, merchant.secretKey, { metadata: { tier: '', region: 'eu' } });
    expect(merged.json().metadata).toEqual({ account: 'ACME-7', region: 'eu' });
    // The same pairs again change nothing and send nothing.
    expect((await post(`/v1/subscriptions/${id}`, merchant.secretKey, { metadata: { region: 'eu' } })).statusCode).toBe(200);
    const events = await updatedEvents(id);
    expect(events.map((e) => [e.data.object.metadata, e.data.previousAttributes])).toEqual([
      [{ account: 'ACME-7', tier: 'gold' }, { metadata: {} }],
      [{ account: 'ACME-7', region: 'eu' }, { metadata: { account: 'ACME-7', tier: 'gold' } }],
    ]);
    const read = await t.app.inject({ method: 'GET', url: `/v1/subscriptions/${id}`, headers: auth(merchant.secretKey) });
    expect(read.json().metadata).toEqual({ account: 'ACME-7', region: 'eu' });

    const another = await seedSubscription(merchant, planB);
    await post(`/v1/subscriptions/${another}`, merchant.secretKey, { metadata: { account: 'ACME-8', region: 'eu' } });
    expect(await listed('metadata[account]=ACME-7')).toEqual([id]);
    expect(await listed('metadata[region]=eu')).toEqual([another, id]);
    expect(await listed(`metadata[region]=eu&planId=${planB}`)).toEqual([another]);
    expect(await listed('metadata[region]=EU')).toEqual([]);
  });

  it('an ended subscription keeps editable metadata; its status and plan do not change here', async () => {
    const id = await seedSubscription(merchant, planA, 'cancelled');
    const res = await post(`/v1/subscriptions/${id}`, merchant.secretKey, { metadata: { closedBy: 'support' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', metadata: { closedBy: 'support' } });
  });

  it('refuses bad input with the envelope, read-only keys and other merchants, changing nothing', async () => {
    const id = await seedSubscription(merchant, planA);
    for (const [payload, param] of [
      [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      [{ metadata: { note: 'v'.repeat(501) } }, 'metadata.note'],
      [{ metadata: { n: 1 } }, 'metadata.n'],
      [{ metadata: { ['k'.repeat(41)]: 'v' } }, `metadata.${'k'.repeat(41)}`],
    ] as const) {
      const res = await post(`/v1/subscriptions/${id}`, merchant.secretKey, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_request', param });
      expect(res.json().error.details.issues.length).toBeGreaterThan(0);
    }
    // Only metadata changes here: another field is an unknown key, named in the message.
    for (const payload of [{ planId: planB }, { status: 'paused' }]) {
      const res = await post(`/v1/subscriptions/${id}`, merchant.secretKey, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      expect(res.json().error.message).toContain(Object.keys(payload)[0]);
    }
    const readOnly = await merchant.keyWithScopes(['subscriptions_read']);
    expect((await post(`/v1/subscriptions/${id}`, readOnly, { metadata: { a: 'b' } })).json().error.code).toBe('permission_denied');
    expect((await post(`/v1/subscriptions/${id}`, other.secretKey, { metadata: { a: 'b' } })).statusCode).toBe(404);
    const [row] = await db.sql`select metadata, plan_id, status from subscriptions where id = ${id}`;
    expect(row).toEqual({ metadata: {}, plan_id: planA, status: 'active' });
    expect(await updatedEvents(id)).toHaveLength(0);
  });

  it.each([
    ['metadata[a]=1&metadata[a]=2', 'metadata.a'],
    ['metadata=plain', 'metadata'],
  ])('GET /v1/subscriptions?%s is invalid_request on %s', async (query, param) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/subscriptions?${query}`, headers: auth(merchant.secretKey) });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param });
  });
});

describe('subscription charges', () => {
  it('reads and lists charges by subscription with subscriptions_read', async () => {
    const subA = await seedSubscription(merchant, planA);
    const subB = await seedSubscription(merchant, planA);
    const charge = await upsertChargeAttempt(db.sql, {
      id: newId('subscriptionCharge'),
      merchantId: merchant.merchantId,
      livemode: false,
      subscriptionId: subA,
      periodIndex: 0,
      periodStart: new Date('2027-01-31T00:00:00Z'),
      amount: '5000000',
      attempt: 1,
    });
    await markChargeSucceeded(db.sql, charge.id, { txHash: `0x${'cd'.repeat(32)}`, blockNumber: '42' });
    await upsertChargeAttempt(db.sql, {
      id: newId('subscriptionCharge'),
      merchantId: merchant.merchantId,
      livemode: false,
      subscriptionId: subB,
      periodIndex: 0,
      periodStart: new Date('2027-01-31T00:00:00Z'),
      amount: '5000000',
      attempt: 1,
    });

    const reader = await merchant.keyWithScopes(['subscriptions_read']);
    const one = await t.app.inject({ method: 'GET', url: `/v1/subscription-charges/${charge.id}`, headers: auth(reader) });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      id: charge.id,
      object: 'subscription_charge',
      subscriptionId: subA,
      periodIndex: 0,
      periodStart: '2027-01-31T00:00:00.000Z',
      amount: '5000000',
      status: 'succeeded',
      attempts: 1,
      transactionHash: `0x${'cd'.repeat(32)}`,
      blockNumber: '42',
      failureCode: null,
    });

    const list = (
      await t.app.inject({ method: 'GET', url: `/v1/subscription-charges?subscriptionId=${subA}`, headers: auth(reader) })
    ).json();
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([charge.id]);
    const all = (await t.app.inject({ method: 'GET', url: '/v1/subscription-charges', headers: auth(reader) })).json();
    expect(all.data.length).toBeGreaterThanOrEqual(2);

    const noScope = await merchant.keyWithScopes(['plans_read']);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/subscription-charges/${charge.id}`, headers: auth(noScope) })).json().error.code,
    ).toBe('permission_denied');
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/subscription-charges/${charge.id}`, headers: auth(other.secretKey) })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/v1/subscription-charges/sub_1', headers: auth(reader) })).statusCode).toBe(404);
  });
});
