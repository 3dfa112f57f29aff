// The customer portal over the real app and database (issue 40, item 4): portal sessions (refusals with the
// envelope, scoping, the token kept only as a hash, expiry), the portal configuration, and the portal's own
// routes: authenticated by the session's token only, showing one customer's subscriptions, refusing a
// stranger's ids as not_found, and acting through the merchant's services (cancel at period end with the
// customer's reason, undo, cancel now, plan switching, promotion codes) with the same events. Subscriptions are
// seeded through the repos the indexer uses; the browser flow is test/browser/billing-portal.test.ts.
import { getAddress } from 'viem';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers/repo.js';
import { newId } from '../../src/ids.js';
import { insertSubscriptionIfAbsent } from '../../src/subscriptions/repo.js';
import { hashPortalToken } from '../../src/billing-portal/service.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
const plans = { big: '', mid: '', huge: '', outside: '' };
let seq = 0;
const USDC = (n: number) => String(n * 1_000_000);
const RETURN_URL = 'https://saas.example/account';

const api = (method: 'GET' | 'POST', url: string, payload?: object, key = merchant.secretKey) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
const portal = (method: 'GET' | 'POST', path: string, token: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/billing-portal/api${path}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

async function seedCustomer(owner: SeededMerchant, livemode = false): Promise<string> {
  const wallet = `0x${(0xbeef0000 + ++seq).toString(16).padStart(40, '0')}`;
  const customer = await upsertCustomer(db.sql, {
    id: newId('customer'),
    merchantId: owner.merchantId,
    livemode,
    walletAddress: wallet,
    email: `c${seq}@example.com`,
  });
  return customer.id;
}

/** An active subscription on the 40 USDC plan (its authorised amount), charged up to period 1. */
async function seedSubscription(customerId: string, owner = merchant, planId = plans.big): Promise<string> {
  const n = ++seq;
  const [customer] = await db.sql<
    { walletAddress: string }[]
  >`select wallet_address as "walletAddress" from customers where id = ${customerId}`;
  const { id } = await insertSubscriptionIfAbsent(db.sql, {
    id: newId('subscription'),
    merchantId: owner.merchantId,
    livemode: false,
    planId,
    customerId,
    status: 'active',
    chainId: '31337',
    contractAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    onChainId: String(5000 + n),
    subscriberAddress: customer!.walletAddress,
    tokenAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    amount: USDC(40),
    periodSeconds: String(28 * 86_400),
    periods: 0,
    firstPeriodStart: new Date('2026-10-01T00:00:00Z'),
    trialEnd: null,
    nextChargeAt: new Date('2026-12-01T00:00:00Z'),
    createdTxHash: null,
  });
  await db.sql`update subscriptions set current_period_index = 1 where id = ${id}`;
  return id;
}

async function session(customerId: string, key = merchant.secretKey): Promise<{ token: string; body: Record<string, unknown> }> {
  const response = await api('POST', '/v1/billing-portal/sessions', { customerId, returnUrl: RETURN_URL }, key);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return { token: new URL(body.url).hash.slice(1), body };
}

const configure = async (body: object, key = merchant.secretKey) => {
  const response = await api('POST', '/v1/billing-portal/configuration', body, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const subscriptionRow = async (id: string) =>
  (
    await db.sql<{ status: string; cancelAtPeriodEnd: boolean; requestedBy: string | null; cancelledBy: string | null }[]>`
      select status, cancel_at_period_end as "cancelAtPeriodEnd", cancellation_requested_by as "requestedBy", cancelled_by as "cancelledBy"
      from subscriptions where id = ${id}`
  )[0]!;

const eventsOf = (id: string, type: string) =>
  db.sql<{ data: { object: { cancellationDetails: unknown } } }[]>`
    select data from events where type = ${type} and data->'object'->>'id' = ${id} order by id`;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql, 'Acme Cloud');
  other = await seedMerchant(db.sql, 'Other');
  const plan = async (name: string, amount: string, key = merchant.secretKey) => {
    const response = await api('POST', '/v1/subscription-plans', { name, amount, interval: 'monthly' }, key);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().id as string;
  };
  plans.big = await plan('Pro', USDC(40));
  plans.mid = await plan('Team', USDC(25));
  plans.huge = await plan('Enterprise', USDC(90));
  plans.outside = await plan('Bespoke', USDC(30));
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('portal sessions', () => {
  it('returns a one-hour link for one customer and keeps only a hash of its token', async () => {
    const customerId = await seedCustomer(merchant);
    const before = Date.now();
    const { token, body } = await session(customerId);
    expect(body).toMatchObject({ object: 'billing_portal.session', customerId, returnUrl: RETURN_URL, livemode: false });
    expect(String(body.id)).toMatch(/^bps_/);
    expect(new URL(String(body.url)).pathname).toBe('/billing-portal/session');
    expect(token).toMatch(/^bpt_/);
    const lifetime = Date.parse(String(body.expiresAt)) - before;
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000 + 5_000);
    const [stored] = await db.sql<
      { tokenHash: string }[]
    >`select token_hash as "tokenHash" from billing_portal_sessions where id = ${String(body.id)}`;
    expect(stored!.tokenHash).toBe(hashPortalToken(token));
    const anywhere =
      await db.sql`select 1 from billing_portal_sessions where token_hash = ${token} or return_url like ${'%' + token + '%'}`;
    expect(anywhere).toHaveLength(0);
    // The event carries the session without its link: the token is in no stored row.
    const events = await db.sql<{ data: { object: Record<string, unknown> } }[]>`
      select data from events where type = 'billing_portal.session.created' and data->'object'->>'id' = ${String(body.id)}`;
    expect(events).toHaveLength(1);
    expect(events[0]!.data.object).toEqual({ ...body, url: null });
    expect(JSON.stringify(events[0]!.data)).not.toContain(token);
  });

  it('refuses bad input with the envelope and param, and creates nothing', async () => {
    const customerId = await seedCustomer(merchant);
    const othersCustomer = await seedCustomer(other);
    const liveCustomer = await seedCustomer(merchant, true);
    const count = async () => Number((await db.sql<{ n: string }[]>`select count(*) as n from billing_portal_sessions`)[0]!.n);
    const before = await count();
    const refusals: [object, string][] = [
      [{ returnUrl: RETURN_URL }, 'customerId'],
      [{ customerId: 'nope', returnUrl: RETURN_URL }, 'customerId'],
      [{ customerId: 'cus_01J00000000000000000000000', returnUrl: RETURN_URL }, 'customerId'],
      [{ customerId: othersCustomer, returnUrl: RETURN_URL }, 'customerId'],
      [{ customerId: liveCustomer, returnUrl: RETURN_URL }, 'customerId'],
      [{ customerId }, 'returnUrl'],
      [{ customerId, returnUrl: 'not a url' }, 'returnUrl'],
      [{ customerId, returnUrl: 'ftp://saas.example/' }, 'returnUrl'],
      [{ customerId, returnUrl: 'http://saas.example/account' }, 'returnUrl'],
      [{ customerId, returnUrl: RETURN_URL, extra: 1 }, ''],
    ];
    for (const [payload, param] of refusals) {
      const response = await api('POST', '/v1/billing-portal/sessions', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const { error } = response.json();
      expect(error.code).toBe('invalid_request');
      if (param) expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
    }
    // http is for the merchant's own machine in test mode only.
    const local = await api('POST', '/v1/billing-portal/sessions', { customerId, returnUrl: 'http://localhost:3000/account' });
    expect(local.statusCode, local.body).toBe(200);
    const liveLocal = await api(
      'POST',
      '/v1/billing-portal/sessions',
      { customerId: liveCustomer, returnUrl: 'http://localhost:3000/account' },
      merchant.liveSecretKey,
    );
    expect(liveLocal.statusCode).toBe(400);
    expect(liveLocal.json().error.param).toBe('returnUrl');
    expect(await count()).toBe(before + 1);
  });

  it('needs a secret key with subscriptions_write', async () => {
    const customerId = await seedCustomer(merchant);
    const readOnly = await merchant.keyWithScopes(['subscriptions_read']);
    for (const key of [readOnly, merchant.publishableKey]) {
      const response = await api('POST', '/v1/billing-portal/sessions', { customerId, returnUrl: RETURN_URL }, key);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission_denied');
    }
    const none = await t.app.inject({ method: 'POST', url: '/v1/billing-portal/sessions', payload: { customerId, returnUrl: RETURN_URL } });
    expect(none.statusCode).toBe(401);
  });
});

describe('portal authentication', () => {
  it('takes only a live portal token: none, a bogus one, a merchant key or an expired one is authentication_error', async () => {
    const customerId = await seedCustomer(merchant);
    const subscriptionId = await seedSubscription(customerId);
    const { token, body } = await session(customerId);
    expect((await portal('GET', '/session', token)).statusCode).toBe(200);
    const missing = await t.app.inject({ method: 'GET', url: '/billing-portal/api/subscriptions' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.code).toBe('authentication_error');
    for (const bad of [`bpt_${'x'.repeat(43)}`, merchant.secretKey, token.slice(0, -1)]) {
      expect((await portal('GET', '/subscriptions', bad)).statusCode).toBe(401);
    }
    // Refused before validation and lookups: a malformed id or body says nothing to a caller without a session.
    const blind = await portal('POST', `/subscriptions/${subscriptionId}/cancel`, 'nope', { atPeriodEnd: 'x' });
    expect(blind.statusCode).toBe(401);
    await db.sql`update billing_portal_sessions set expires_at = now() - interval '1 second' where id = ${String(body.id)}`;
    const expired = await portal('GET', '/subscriptions', token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('authentication_error');
    expect((await portal('POST', `/subscriptions/${subscriptionId}/cancel`, token, { atPeriodEnd: true })).statusCode).toBe(401);
    expect((await subscriptionRow(subscriptionId)).cancelAtPeriodEnd).toBe(false);
  });
});

describe('the portal', () => {
  it("shows the merchant, the return link and only this customer's subscriptions", async () => {
    const customerId = await seedCustomer(merchant);
    const mine = [await seedSubscription(customerId), await seedSubscription(customerId)];
    await seedSubscription(await seedCustomer(merchant));
    const { token } = await session(customerId);
    const state = (await portal('GET', '/session', token)).json();
    expect(state).toMatchObject({ merchantName: 'Acme Cloud', returnUrl: RETURN_URL, customer: { id: customerId } });
    expect(state.configuration).toMatchObject({ cancel: { mode: 'at_period_end' }, planSwitching: { planIds: [] }, promotionCodes: false });
    const list = (await portal('GET', '/subscriptions', token)).json().data;
    expect(list.map((s: { subscription: { id: string } }) => s.subscription.id).sort()).toEqual([...mine].sort());
    expect(list[0]).toMatchObject({
      plan: { id: plans.big, name: 'Pro', amount: USDC(40) },
      nextCharge: { amount: USDC(40), at: '2026-12-01T00:00:00.000Z' },
      planChangeUrl: null,
    });
    expect((await portal('GET', '/payments', token)).json().data).toEqual([]);
    expect((await portal('GET', '/invoices', token)).json().data).toEqual([]);
  });

  it("lists the invoices created for the customer's id, and those sent to their email without a customer; never another customer's", async () => {
    await setPayoutAddress(db.sql, merchant.merchantId, `0x${'90'.repeat(20)}`);
    // Invoices need the mode's chain (their payment session): an app with one, on the same database.
    const invoicing = await createTestApp(db.sql, { chain: { test: settingsOf(sharedChain()) } });
    const customerId = await seedCustomer(merchant);
    const neighbour = await seedCustomer(merchant);
    const email = (await db.sql<{ email: string }[]>`select email from customers where id = ${customerId}`)[0]!.email;
    const createInvoice = (payload: object) =>
      invoicing.app.inject({
        method: 'POST',
        url: '/v1/invoices',
        headers: { authorization: `Bearer ${merchant.secretKey}` },
        payload: { lineItems: [{ description: 'Hours', quantity: 1, unitAmount: USDC(5) }], ...payload },
      });
    const invoice = async (payload: object) => {
      const res = await createInvoice(payload);
      expect(res.statusCode, res.body).toBe(200);
      // Drafts are never listed: mark it sent as the send route would.
      await db.sql`update invoices set status = 'sent' where id = ${res.json().id}`;
      return res.json() as { id: string; customerId: string | null; customerEmail: string | null };
    };
    const byId = await invoice({ customerId });
    expect(byId).toMatchObject({ customerId, customerEmail: email });
    const byEmail = await invoice({ customerEmail: email });
    // The neighbour's invoice sent to this customer's email is the neighbour's: not listed here.
    await invoice({ customerId: neighbour, customerEmail: email });
    const unknown = await createInvoice({ customerId: 'cus_01J00000000000000000000000' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'invalid_request', param: 'customerId' });
    const { token } = await session(customerId);
    const listed = (await portal('GET', '/invoices', token)).json().data.map((i: { id: string }) => i.id);
    expect(listed.sort()).toEqual([byId.id, byEmail.id].sort());
    await invoicing.close();
  });

  it('starts a move to another wallet for the new wallet to approve, refuses the current one or a stranger customer’s, and withdraws it', async () => {
    const customerId = await seedCustomer(merchant);
    const subscriptionId = await seedSubscription(customerId);
    const neighbour = await seedCustomer(merchant);
    const neighbourWallet = (await db.sql<{ w: string }[]>`select wallet_address as w from customers where id = ${neighbour}`)[0]!.w;
    const ownWallet = (await db.sql<{ w: string }[]>`select subscriber_address as w from subscriptions where id = ${subscriptionId}`)[0]!.w;
    const { token } = await session(customerId);
    const move = (walletAddress: unknown) => portal('POST', `/subscriptions/${subscriptionId}/wallet-change`, token, { walletAddress });
    for (const [wallet, param] of [
      [ownWallet, 'walletAddress'],
      [neighbourWallet, 'walletAddress'],
      ['0x1234', 'walletAddress'],
    ] as const) {
      const res = await move(wallet);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_request', param });
    }
    const newWallet = `0x${'ab'.repeat(20)}`;
    const started = await move(newWallet);
    expect(started.statusCode, started.body).toBe(200);
    const change = started.json().walletChange;
    expect(change).toMatchObject({ status: 'pending', walletAddress: getAddress(newWallet), fromWalletAddress: getAddress(ownWallet) });
    expect(change.hostedUrl).toMatch(new RegExp(`/checkout/wallet-changes/${change.id}\\?token=[0-9a-f]{64}$`));
    // The approval page's offer and status open with the link's token only.
    const link = new URL(change.hostedUrl);
    const status = await t.app.inject({ method: 'GET', url: `${link.pathname}/status${link.search}` });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toMatchObject({ id: change.id, kind: 'wallet_change', status: 'pending', subscriber: getAddress(newWallet) });
    expect((await t.app.inject({ method: 'GET', url: `${link.pathname}/status?token=${'0'.repeat(64)}` })).statusCode).toBe(404);
    // A second move replaces the first (its link closes).
    const again = (await move(`0x${'cd'.repeat(20)}`)).json().walletChange;
    expect(again.id).not.toBe(change.id);
    expect((await t.app.inject({ method: 'GET', url: `${link.pathname}/status${link.search}` })).json().status).toBe('cancelled');
    const withdrawn = await portal('POST', `/subscriptions/${subscriptionId}/wallet-change/cancel`, token, {});
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().walletChange).toMatchObject({ id: again.id, status: 'cancelled', hostedUrl: null });
    expect((await portal('POST', `/subscriptions/${subscriptionId}/wallet-change/cancel`, token, {})).statusCode).toBe(403);
    // Nothing moved.
    expect((await api('GET', `/v1/subscriptions/${subscriptionId}`)).json().customer.walletAddress).toBe(ownWallet);
    // The merchant turns moves off: the portal says so and records nothing; on again, the customer may.
    expect((await configure({ walletChanges: false })).walletChanges).toBe(false);
    expect((await portal('GET', '/session', token)).json().configuration.walletChanges).toBe(false);
    const refused = await move(`0x${'ef'.repeat(20)}`);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.code).toBe('permission_denied');
    expect(
      Number(
        (
          await db.sql<{ n: string }[]>`select count(*) as n from subscription_reauthorisations where subscription_id = ${subscriptionId}`
        )[0]!.n,
      ),
    ).toBe(2);
    await configure({ walletChanges: true });
    expect((await move(`0x${'ef'.repeat(20)}`)).statusCode).toBe(200);
  });

  it("refuses a stranger's subscription as not_found and changes nothing", async () => {
    const customerId = await seedCustomer(merchant);
    await seedSubscription(customerId);
    const neighbour = await seedSubscription(await seedCustomer(merchant));
    const othersCustomer = await seedCustomer(other);
    const othersPlan = (
      await api('POST', '/v1/subscription-plans', { name: 'X', amount: USDC(40), interval: 'monthly' }, other.secretKey)
    ).json().id;
    const foreign = await seedSubscription(othersCustomer, other, othersPlan);
    const { token } = await session(customerId);
    await configure({ planSwitching: { planIds: [plans.big, plans.mid] }, promotionCodes: true });
    for (const id of [neighbour, foreign, 'sub_01J00000000000000000000000']) {
      for (const [path, body] of [
        ['cancel', { atPeriodEnd: true }],
        ['uncancel', {}],
        ['change-plan', { planId: plans.mid }],
        ['promotion-code', { code: 'ANY' }],
      ] as const) {
        const response = await portal('POST', `/subscriptions/${id}/${path}`, token, body);
        expect(response.statusCode, `${path} ${response.body}`).toBe(404);
        expect(response.json().error).toMatchObject({ code: 'not_found', param: 'id' });
      }
    }
    for (const id of [neighbour, foreign]) expect(await subscriptionRow(id)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    await configure({ planSwitching: { planIds: [] }, promotionCodes: false });
  });

  it("cancels at the period end with the customer's reason, as the merchant's cancel does, and undoes it", async () => {
    const customerId = await seedCustomer(merchant);
    const id = await seedSubscription(customerId);
    const { token } = await session(customerId);
    const now = await portal('POST', `/subscriptions/${id}/cancel`, token, { atPeriodEnd: false });
    expect(now.statusCode).toBe(400);
    expect(now.json().error).toMatchObject({ code: 'invalid_request', param: 'atPeriodEnd' });
    const badReason = await portal('POST', `/subscriptions/${id}/cancel`, token, { atPeriodEnd: true, feedback: 'bored' });
    expect(badReason.statusCode).toBe(400);
    expect(badReason.json().error.details.issues[0].path).toBe('feedback');
    expect(await subscriptionRow(id)).toMatchObject({ cancelAtPeriodEnd: false });

    const cancelled = await portal('POST', `/subscriptions/${id}/cancel`, token, {
      atPeriodEnd: true,
      feedback: 'too_expensive',
      reason: 'Over budget this year',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({
      subscription: {
        status: 'active',
        cancelAtPeriodEnd: true,
        cancelAt: '2026-12-01T00:00:00.000Z',
        cancellationDetails: { requestedBy: 'subscriber', reason: 'Over budget this year', feedback: 'too_expensive' },
      },
      nextCharge: null,
    });
    const [event] = await eventsOf(id, 'subscription.updated');
    expect(event!.data.object.cancellationDetails).toEqual({
      requestedBy: 'subscriber',
      reason: 'Over budget this year',
      feedback: 'too_expensive',
    });
    // The merchant sees it the same way.
    expect((await api('GET', `/v1/subscriptions/${id}`)).json()).toMatchObject({ cancelAtPeriodEnd: true });

    const undone = await portal('POST', `/subscriptions/${id}/uncancel`, token);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().subscription).toMatchObject({ cancelAtPeriodEnd: false, cancelAt: null, cancellationDetails: null });
    expect(await eventsOf(id, 'subscription.updated')).toHaveLength(2);
    const again = await portal('POST', `/subscriptions/${id}/uncancel`, token);
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('session_invalid_state');
  });

  it('follows the configuration: reasons offered, cancel now, or no cancel at all', async () => {
    const customerId = await seedCustomer(merchant);
    const first = await seedSubscription(customerId);
    const second = await seedSubscription(customerId);
    const { token } = await session(customerId);

    await configure({ cancel: { mode: 'now', reasons: ['unused'] } });
    const notOffered = await portal('POST', `/subscriptions/${first}/cancel`, token, { atPeriodEnd: false, feedback: 'too_expensive' });
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json().error.param).toBe('feedback');
    const later = await portal('POST', `/subscriptions/${first}/cancel`, token, { atPeriodEnd: true });
    expect(later.json().error.param).toBe('atPeriodEnd');
    const cancelled = await portal('POST', `/subscriptions/${first}/cancel`, token, { atPeriodEnd: false, feedback: 'unused' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await subscriptionRow(first)).toMatchObject({ status: 'cancelled', cancelledBy: 'subscriber', requestedBy: 'subscriber' });
    expect(await eventsOf(first, 'subscription.cancelled')).toHaveLength(1);

    await configure({ cancel: { mode: 'off' } });
    const off = await portal('POST', `/subscriptions/${second}/cancel`, token, { atPeriodEnd: false });
    expect(off.statusCode).toBe(403);
    expect(off.json().error.code).toBe('permission_denied');
    expect(await subscriptionRow(second)).toMatchObject({ status: 'active' });
    await configure({ cancel: { mode: 'at_period_end', reasons: ['too_expensive', 'unused', 'other'] } });
  });

  it('switches plan only among the allowed ones, through the plan change rules', async () => {
    const customerId = await seedCustomer(merchant);
    const id = await seedSubscription(customerId);
    const bespoke = await seedSubscription(customerId, merchant, plans.outside);
    const { token } = await session(customerId);
    const off = await portal('POST', `/subscriptions/${id}/change-plan`, token, { planId: plans.mid });
    expect(off.statusCode).toBe(403);

    await configure({ planSwitching: { planIds: [plans.big, plans.mid, plans.huge] } });
    const state = (await portal('GET', '/session', token)).json();
    expect(state.plans.map((p: { id: string }) => p.id)).toEqual([plans.big, plans.mid, plans.huge]);
    const notListed = await portal('POST', `/subscriptions/${id}/change-plan`, token, { planId: plans.outside });
    expect(notListed.statusCode).toBe(400);
    expect(notListed.json().error.param).toBe('planId');
    const fromBespoke = await portal('POST', `/subscriptions/${bespoke}/change-plan`, token, { planId: plans.mid });
    expect(fromBespoke.json().error.param).toBe('planId');

    const down = await portal('POST', `/subscriptions/${id}/change-plan`, token, { planId: plans.mid });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json()).toMatchObject({
      subscription: { planId: plans.big, pendingPlanChange: { planId: plans.mid, status: 'scheduled' } },
      nextCharge: { amount: USDC(25) },
    });
    // Above the 40 USDC the customer authorised: waits for them, nothing changes.
    const up = await portal('POST', `/subscriptions/${id}/change-plan`, token, { planId: plans.huge });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({
      subscription: {
        planId: plans.big,
        planAmount: USDC(40),
        pendingPlanChange: { planId: plans.huge, status: 'requires_customer_action' },
      },
      nextCharge: { amount: USDC(40) },
    });
    const planChanges = await db.sql`select status from subscription_plan_changes where subscription_id = ${id} order by created_at`;
    expect(planChanges.map((c) => c.status)).toEqual(['cancelled', 'requires_customer_action']);
    await configure({ planSwitching: { planIds: [] } });
  });

  it('applies a promotion code when the configuration allows it', async () => {
    const customerId = await seedCustomer(merchant);
    const id = await seedSubscription(customerId);
    const { token } = await session(customerId);
    const coupon = (await api('POST', '/v1/coupons', { percentOff: 25, duration: 'forever' })).json();
    expect((await api('POST', '/v1/promotion-codes', { coupon: coupon.id, code: 'PORTAL25' })).statusCode).toBe(200);
    const off = await portal('POST', `/subscriptions/${id}/promotion-code`, token, { code: 'PORTAL25' });
    expect(off.statusCode).toBe(403);

    await configure({ promotionCodes: true });
    const unknown = await portal('POST', `/subscriptions/${id}/promotion-code`, token, { code: 'NOPE' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.param).toBe('code');
    const applied = await portal('POST', `/subscriptions/${id}/promotion-code`, token, { code: 'portal25' });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ subscription: { discount: { coupon: { percentOff: 25 } } }, nextCharge: { amount: USDC(30) } });
    await configure({ promotionCodes: false });
  });
});

describe('portal configuration', () => {
  it('has defaults, changes only the keys sent, refuses unknown plans, and is per mode', async () => {
    const fresh = await seedMerchant(db.sql, 'Fresh');
    const defaults = (await api('GET', '/v1/billing-portal/configuration', undefined, fresh.secretKey)).json();
    expect(defaults).toMatchObject({
      id: null,
      object: 'billing_portal.configuration',
      cancel: { mode: 'at_period_end' },
      promotionCodes: false,
      walletChanges: true,
    });
    expect(defaults.cancel.reasons).toContain('too_expensive');
    const updated = await configure({ promotionCodes: true }, fresh.secretKey);
    expect(updated).toMatchObject({ cancel: { mode: 'at_period_end' }, promotionCodes: true });
    expect(updated.id).toMatch(/^bpc_/);
    const refusals: [object, string][] = [
      [{ planSwitching: { planIds: [plans.big] } }, 'planSwitching.planIds.0'],
      [{ planSwitching: { planIds: ['nope'] } }, 'planSwitching.planIds.0'],
      [{ cancel: { mode: 'sometimes' } }, 'cancel.mode'],
      [{ cancel: { reasons: ['bored'] } }, 'cancel.reasons.0'],
    ];
    for (const [payload, param] of refusals) {
      const response = await api('POST', '/v1/billing-portal/configuration', payload, fresh.secretKey);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
    }
    expect((await api('GET', '/v1/billing-portal/configuration', undefined, fresh.secretKey)).json()).toMatchObject({
      promotionCodes: true,
    });
    expect((await api('GET', '/v1/billing-portal/configuration', undefined, fresh.liveSecretKey)).json()).toMatchObject({
      id: null,
      promotionCodes: false,
    });
  });
});

describe('the portal page', () => {
  it('is a static shell with one same-origin script and a strict CSP, on both ways in', async () => {
    for (const url of ['/billing-portal/session', '/billing-portal/c/bpc_01JD8ZX0000000000000000001']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.body.match(/<script/g)).toHaveLength(1);
      expect(page.body).toContain('<script src="/billing-portal/assets/portal.js"></script>');
    }
    const script = await t.app.inject({ method: 'GET', url: '/billing-portal/assets/portal.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths['/v1/billing-portal/configuration'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths['/v1/billing-portal/sessions'].post).toBeDefined();
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/billing-portal'))).toEqual([]);
  });
});
