// GET /v1/customers and /v1/customers/{id} over the real app and database.
// Customers, subscriptions and charges are seeded through the repos the
// subscription projection and its activities use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers/repo.js';
import { newId } from '../../src/ids.js';
import { markChargeSucceeded, upsertChargeAttempt } from '../../src/subscription-charges/repo.js';
import { insertSubscriptionIfAbsent, updateSubscription, type SubscriptionStatus } from '../../src/subscriptions/repo.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let seq = 0;

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function seedCustomer(owner: SeededMerchant, options: { livemode?: boolean; email?: string | null } = {}) {
  const wallet = `0x${(++seq).toString(16).padStart(40, 'a')}`;
  return upsertCustomer(db.sql, {
    id: newId('customer'),
    merchantId: owner.merchantId,
    livemode: options.livemode ?? false,
    walletAddress: wallet,
    email: options.email ?? null,
  });
}

async function seedSubscription(
  owner: SeededMerchant,
  customer: { id: string; walletAddress: string },
  planId: string,
  status: SubscriptionStatus,
) {
  const { id } = await insertSubscriptionIfAbsent(db.sql, {
    id: newId('subscription'),
    merchantId: owner.merchantId,
    livemode: false,
    planId,
    customerId: customer.id,
    status: 'active',
    chainId: '31337',
    contractAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    onChainId: String(++seq),
    subscriberAddress: customer.walletAddress,
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
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('customers', () => {
  it("lists the merchant's customers of the key's mode, newest first, with cursor pagination and counts", async () => {
    const first = await seedCustomer(merchant, { email: 'first@example.com' });
    const second = await seedCustomer(merchant);
    const third = await seedCustomer(merchant, { email: 'Third@Example.com' });
    await seedCustomer(other);
    const live = await seedCustomer(merchant, { livemode: true });
    const plan = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/subscription-plans',
        headers: auth(merchant.secretKey),
        payload: { name: 'P', amount: '5000000', interval: 'monthly' },
      })
    ).json().id;
    const active = await seedSubscription(merchant, first, plan, 'active');
    await seedSubscription(merchant, first, plan, 'cancelled');
    const charge = await upsertChargeAttempt(db.sql, {
      id: newId('subscriptionCharge'),
      merchantId: merchant.merchantId,
      livemode: false,
      subscriptionId: active,
      periodIndex: 0,
      periodStart: new Date('2027-01-31T00:00:00Z'),
      amount: '5000000',
      attempt: 1,
    });
    await markChargeSucceeded(db.sql, charge.id, { txHash: `0x${'cd'.repeat(32)}`, blockNumber: '42' });

    const page1 = await t.app.inject({ method: 'GET', url: '/v1/customers?limit=2', headers: auth(merchant.secretKey) });
    expect(page1.statusCode, page1.body).toBe(200);
    expect(page1.json().data.map((c: { id: string }) => c.id)).toEqual([third.id, second.id]);
    expect(page1.json().hasMore).toBe(true);
    const page2 = await t.app.inject({
      method: 'GET',
      url: `/v1/customers?limit=2&cursor=${page1.json().nextCursor}`,
      headers: auth(merchant.secretKey),
    });
    expect(page2.json()).toMatchObject({ hasMore: false, nextCursor: '' });
    expect(page2.json().data).toEqual([
      {
        id: first.id,
        object: 'customer',
        walletAddress: first.walletAddress,
        email: 'first@example.com',
        firstSeenAt: first.createdAt.toISOString(),
        subscriptionCount: 2,
        activeSubscriptionCount: 1,
        lastSubscribedAt: expect.any(String),
        succeededChargeCount: 1,
        completedPaymentCount: 0,
        metadata: {},
        livemode: false,
      },
    ]);
    expect(page1.json().data[1]).toMatchObject({
      subscriptionCount: 0,
      activeSubscriptionCount: 0,
      lastSubscribedAt: null,
      succeededChargeCount: 0,
      email: null,
    });

    // Filters.
    const byWallet = await t.app.inject({
      method: 'GET',
      url: `/v1/customers?walletAddress=${second.walletAddress.toUpperCase().replace('0X', '0x')}`,
      headers: auth(merchant.secretKey),
    });
    expect(byWallet.json().data.map((c: { id: string }) => c.id)).toEqual([second.id]);
    const byEmail = await t.app.inject({ method: 'GET', url: '/v1/customers?email=third@example.com', headers: auth(merchant.secretKey) });
    expect(byEmail.json().data.map((c: { id: string }) => c.id)).toEqual([third.id]);

    // Merchant and mode scoped.
    const others = await t.app.inject({ method: 'GET', url: '/v1/customers', headers: auth(other.secretKey) });
    expect(others.json().data).toHaveLength(1);
    expect(others.json().data[0].id).not.toBe(first.id);
    const liveList = await t.app.inject({ method: 'GET', url: '/v1/customers', headers: auth(merchant.liveSecretKey) });
    expect(liveList.json().data.map((c: { id: string }) => c.id)).toEqual([live.id]);
  });

  it("retrieves one customer; another merchant's or mode's is not_found", async () => {
    const customer = await seedCustomer(merchant, { email: 'one@example.com' });
    const one = await t.app.inject({ method: 'GET', url: `/v1/customers/${customer.id}`, headers: auth(merchant.secretKey) });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: customer.id, object: 'customer', email: 'one@example.com', subscriptionCount: 0 });
    for (const key of [other.secretKey, merchant.liveSecretKey]) {
      const hidden = await t.app.inject({ method: 'GET', url: `/v1/customers/${customer.id}`, headers: auth(key) });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().error).toMatchObject({ code: 'not_found', param: 'id' });
    }
  });

  it('needs subscriptions_read; publishable keys may not list customers', async () => {
    const withScope = await merchant.keyWithScopes(['subscriptions_read']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/customers', headers: auth(withScope) })).statusCode).toBe(200);
    const without = await merchant.keyWithScopes(['invoices_read', 'webhooks_read']);
    const refused = await t.app.inject({ method: 'GET', url: '/v1/customers', headers: auth(without) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('permission_denied');
    expect((await t.app.inject({ method: 'GET', url: '/v1/customers', headers: auth(merchant.publishableKey) })).statusCode).toBe(403);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/v1/customers'].get['x-required-scope']).toBe('subscriptions_read');
    expect(doc.paths['/v1/customers'].get.operationId).toBe('listCustomers');
    expect(doc.paths['/v1/customers/{id}'].get.operationId).toBe('getCustomer');
  });
});

describe('customer metadata', () => {
  const post = (id: string, key: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/v1/customers/${id}`, headers: auth(key), payload });
  const listed = async (query: string) =>
    (
      (await t.app.inject({ method: 'GET', url: `/v1/customers?${query}`, headers: auth(merchant.secretKey) })).json().data as {
        id: string;
      }[]
    ).map((c) => c.id);

  it('POST /v1/customers/{id} merges metadata; the customer shows it and the list filters by it', async () => {
    const alice = await seedCustomer(merchant, { email: 'alice@example.com' });
    const bob = await seedCustomer(merchant);
    const set = await post(alice.id, merchant.secretKey, { metadata: { crmId: 'C-1', segment: 'smb' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ id: alice.id, email: 'alice@example.com', metadata: { crmId: 'C-1', segment: 'smb' } });
    const merged = await post(alice.id, merchant.secretKey, { metadata: { segment: '', owner: 'ana' } });
    expect(merged.json().metadata).toEqual({ crmId: 'C-1', owner: 'ana' });
    await post(bob.id, merchant.secretKey, { metadata: { owner: 'ana' } });
    const read = await t.app.inject({ method: 'GET', url: `/v1/customers/${alice.id}`, headers: auth(merchant.secretKey) });
    expect(read.json().metadata).toEqual({ crmId: 'C-1', owner: 'ana' });
    expect(await listed('metadata[crmId]=C-1')).toEqual([alice.id]);
    expect(await listed('metadata[owner]=ana')).toEqual([bob.id, alice.id]);
    expect(await listed('metadata[owner]=ana&metadata[crmId]=C-1')).toEqual([alice.id]);
    expect(await listed('metadata[owner]=Ana')).toEqual([]);
    expect((await post(bob.id, merchant.secretKey, {})).json().metadata).toEqual({ owner: 'ana' });
    // customer.updated once per change, with the metadata before; a call that changes nothing sends nothing.
    expect((await post(bob.id, merchant.secretKey, { metadata: { owner: 'ana' } })).statusCode).toBe(200);
    const events = await db.sql<{ id: string; previous: unknown; now: unknown }[]>`
      select data->'object'->>'id' as id, data->'previousAttributes'->'metadata' as previous, data->'object'->'metadata' as now
      from events where type = 'customer.updated' and merchant_id = ${merchant.merchantId} order by id`;
    // Event ids made in one millisecond need not sort in order: compared as a set.
    expect(events).toHaveLength(3);
    expect(events).toEqual(
      expect.arrayContaining([
        { id: alice.id, previous: {}, now: { crmId: 'C-1', segment: 'smb' } },
        { id: alice.id, previous: { crmId: 'C-1', segment: 'smb' }, now: { crmId: 'C-1', owner: 'ana' } },
        { id: bob.id, previous: {}, now: { owner: 'ana' } },
      ]),
    );
  });

  it('refuses bad input with the envelope, other fields, read-only keys and other merchants, changing nothing', async () => {
    const carol = await seedCustomer(merchant, { email: 'carol@example.com' });
    for (const [metadata, param] of [
      [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])), 'metadata'],
      [{ note: 'v'.repeat(501) }, 'metadata.note'],
      [{ n: 1 }, 'metadata.n'],
    ] as const) {
      const res = await post(carol.id, merchant.secretKey, { metadata });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_request', param });
      expect(res.json().error.details.issues.length).toBeGreaterThan(0);
    }
    const other_ = await post(carol.id, merchant.secretKey, { email: 'mallory@example.com' });
    expect(other_.statusCode).toBe(400);
    expect(other_.json().error.message).toContain('email');
    const readOnly = await merchant.keyWithScopes(['subscriptions_read']);
    expect((await post(carol.id, readOnly, { metadata: { a: 'b' } })).json().error.code).toBe('permission_denied');
    expect((await post(carol.id, other.secretKey, { metadata: { a: 'b' } })).statusCode).toBe(404);
    const [row] = await db.sql`select metadata, email from customers where id = ${carol.id}`;
    expect(row).toEqual({ metadata: {}, email: 'carol@example.com' });
    expect((await db.sql`select 1 from events where type = 'customer.updated' and data->'object'->>'id' = ${carol.id}`).length).toBe(0);
    const bad = await t.app.inject({ method: 'GET', url: '/v1/customers?metadata=plain', headers: auth(merchant.secretKey) });
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', param: 'metadata' });
  });
});
