// The list filters the dashboard sends (issue 28): status, createdFrom (inclusive) / createdTo
// (exclusive) and the search box `q`, on payment sessions, subscriptions, customers, invoices and
// refunds, over the real app and database. Rows are written with SQL so each has a known
// created_at, payer and transaction hash. The `chainId` filter (issue 39) on every list whose objects
// carry a chain: the app is configured with two test-mode chains (A, the shared anvil's, and B).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers/repo.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { newId } from '../../src/ids.js';
import { insertSubscriptionIfAbsent } from '../../src/subscriptions/repo.js';
import type { ChainConfig } from '../../src/chain/config.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { SECOND_CHAIN_ID, settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let t: TestApp;
let m: SeededMerchant;

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const hex = (byte: string, bytes: number) => `0x${byte.repeat(bytes)}`;
const DAY1 = new Date('2026-03-01T10:00:00Z');
const DAY2 = new Date('2026-03-02T10:00:00Z');
const DAY3 = new Date('2026-03-03T10:00:00Z');
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

// Wallets in mixed case where the chain reports checksummed addresses.
const alice = { wallet: '0xAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAa', email: 'Alice@Example.com' };
const bob = { wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB', email: 'bob@example.org' };

/** Rows on chain B (SECOND_CHAIN_ID), created before DAY1 or after DAY3 so the other filters' answers stay as they were. */
const onB = { session: '', subscription: '', refund: '', charges: [] as string[] };
const CHAIN_A = 31337;

const ids = {
  sessions: [] as string[],
  customers: [] as string[],
  subscriptions: [] as string[],
  invoices: [] as string[],
  refunds: [] as string[],
};

async function session(status: string, createdAt: Date, payer: string | null, txHash: string | null) {
  const id = newId('paymentSession');
  await db.sql`
    insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at, payer, transaction_hash, created_at)
    values (${id}, ${m.merchantId}, false, 1000000, 'USDC', ${status}, ${hex('90', 20)}, ${TOKEN}, 31337, now() + interval '1 hour', ${payer}, ${txHash}, ${createdAt})`;
  ids.sessions.push(id);
  return id;
}

async function get(url: string) {
  const response = await t.app.inject({ method: 'GET', url, headers: auth(m.secretKey) });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as { id: string }[]).map((o) => o.id);
}

beforeAll(async () => {
  db = await createTestDatabase();
  const a = settingsOf(sharedChain());
  const chain: ChainConfig = { test: a, others: { test: [{ ...a, chainId: SECOND_CHAIN_ID }] } };
  t = await createTestApp(db.sql, { chain });
  m = await seedMerchant(db.sql);
  const other = await seedMerchant(db.sql, 'Other');

  await session('completed', DAY1, alice.wallet, hex('11', 32));
  await session('open', DAY2, null, null);
  await session('completed', DAY3, bob.wallet.toLowerCase(), hex('22', 32));

  for (const [person, createdAt] of [
    [alice, DAY1],
    [bob, DAY3],
  ] as const) {
    const c = await upsertCustomer(db.sql, {
      id: newId('customer'),
      merchantId: m.merchantId,
      livemode: false,
      walletAddress: person.wallet.toLowerCase(),
      email: person.email,
    });
    await db.sql`update customers set created_at = ${createdAt} where id = ${c.id}`;
    ids.customers.push(c.id);
  }
  // Another merchant's customer with the same email: never listed.
  await upsertCustomer(db.sql, {
    id: newId('customer'),
    merchantId: other.merchantId,
    livemode: false,
    walletAddress: alice.wallet.toLowerCase(),
    email: alice.email,
  });

  const plan = (
    await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(m.secretKey),
      payload: { name: 'P', amount: '5000000', interval: 'monthly' },
    })
  ).json().id;
  for (const [i, status, createdAt] of [
    [0, 'active', DAY1],
    [1, 'cancelled', DAY3],
  ] as const) {
    const { id } = await insertSubscriptionIfAbsent(db.sql, {
      id: newId('subscription'),
      merchantId: m.merchantId,
      livemode: false,
      planId: plan,
      customerId: ids.customers[i]!,
      status: 'active',
      chainId: '31337',
      contractAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
      onChainId: String(i + 1),
      subscriberAddress: (i === 0 ? alice : bob).wallet.toLowerCase(),
      tokenAddress: TOKEN,
      amount: '5000000',
      periodSeconds: String(28 * 86_400),
      periods: 12,
      firstPeriodStart: createdAt,
      trialEnd: null,
      nextChargeAt: createdAt,
      createdTxHash: hex(i === 0 ? '33' : '44', 32),
    });
    await db.sql`update subscriptions set status = ${status}, created_at = ${createdAt} where id = ${id}`;
    ids.subscriptions.push(id);
  }

  for (const [i, status, email, number, createdAt] of [
    [0, 'paid', alice.email, 'INV-2026-0001', DAY1],
    [2, 'sent', bob.email, 'INV-2026-0002', DAY3],
  ] as const) {
    const id = newId('invoice');
    await db.sql`
      insert into invoices (id, merchant_id, livemode, number, customer_email, currency, line_items, subtotal, total, status, session_id, due_at, due_in_days, created_at)
      values (${id}, ${m.merchantId}, false, ${number}, ${email}, 'USDC', '[]', 1000000, 1000000, ${status}, ${ids.sessions[i]!}, now(), 14, ${createdAt})`;
    ids.invoices.push(id);
  }

  for (const [i, status, to, txHash, createdAt] of [
    [0, 'succeeded', alice.wallet, hex('55', 32), DAY1],
    [2, 'pending', bob.wallet, null, DAY3],
  ] as const) {
    const id = newId('refund');
    await db.sql`
      insert into refunds (id, merchant_id, livemode, payment_session_id, amount, currency, status, chain_id, token, from_address, to_address, transaction_hash, created_at)
      values (${id}, ${m.merchantId}, false, ${ids.sessions[i]!}, 500000, 'USDC', ${status}, 31337, ${TOKEN}, ${hex('90', 20)}, ${to}, ${txHash}, ${createdAt})`;
    ids.refunds.push(id);
  }

  // On chain B: a session that accepts only B, its refund, a subscription enrolled on B, and a charge on each chain.
  onB.session = newId('paymentSession');
  await db.sql`
    insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at, accepted_chains, created_at)
    values (${onB.session}, ${m.merchantId}, false, 1000000, 'USDC', 'expired', ${hex('90', 20)}, ${TOKEN}, ${SECOND_CHAIN_ID}, now(),
            ${db.sql.json([{ chainId: SECOND_CHAIN_ID, token: TOKEN }])}, '2026-01-01T00:00:00Z')`;
  onB.refund = newId('refund');
  await db.sql`
    insert into refunds (id, merchant_id, livemode, payment_session_id, amount, currency, status, chain_id, token, from_address, to_address, created_at)
    values (${onB.refund}, ${m.merchantId}, false, ${onB.session}, 500000, 'USDC', 'succeeded', ${SECOND_CHAIN_ID}, ${TOKEN}, ${hex('90', 20)},
            ${hex('78', 20)}, '2026-01-01T00:00:00Z')`;
  const enrolledOnB = await insertSubscriptionIfAbsent(db.sql, {
    id: newId('subscription'),
    merchantId: m.merchantId,
    livemode: false,
    planId: plan,
    customerId: ids.customers[0]!,
    status: 'active',
    chainId: String(SECOND_CHAIN_ID),
    contractAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    onChainId: '1',
    subscriberAddress: hex('77', 20),
    tokenAddress: TOKEN,
    amount: '5000000',
    periodSeconds: String(28 * 86_400),
    periods: 12,
    firstPeriodStart: DAY3,
    trialEnd: null,
    nextChargeAt: DAY3,
    createdTxHash: hex('66', 32),
  });
  onB.subscription = enrolledOnB.id;
  await db.sql`update subscriptions set created_at = '2026-03-05T00:00:00Z' where id = ${onB.subscription}`;
  // One charge with its chain recorded, one written before charges carried it (read as its subscription's).
  for (const [subscriptionId, chainId] of [
    [ids.subscriptions[0]!, null],
    [onB.subscription, SECOND_CHAIN_ID],
  ] as const) {
    const id = newId('subscriptionCharge');
    await db.sql`
      insert into subscription_charges (id, merchant_id, livemode, subscription_id, chain_id, period_index, period_start, amount, status, attempts)
      values (${id}, ${m.merchantId}, false, ${subscriptionId}, ${chainId}, 0, ${DAY3}, 5000000, 'succeeded', 1)`;
    onB.charges.push(id);
  }
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const window = `createdFrom=${encodeURIComponent('2026-03-02T00:00:00+00:00')}&createdTo=${encodeURIComponent(DAY3.toISOString())}`;

describe('list filters', () => {
  it('payment sessions: status, created window, and q by id, payer (any case), transaction hash and customer email prefix', async () => {
    const [s1, s2, s3] = ids.sessions;
    expect(await get('/v1/payment-sessions?status=completed')).toEqual([s3, s1]);
    expect(await get(`/v1/payment-sessions?${window}`)).toEqual([s2]);
    expect(await get(`/v1/payment-sessions?createdFrom=${encodeURIComponent(DAY2.toISOString())}`)).toEqual([s3, s2]); // inclusive
    expect(await get(`/v1/payment-sessions?q=${s2}`)).toEqual([s2]);
    expect(await get(`/v1/payment-sessions?q=${alice.wallet.toLowerCase()}`)).toEqual([s1]);
    expect(await get(`/v1/payment-sessions?q=${bob.wallet}`)).toEqual([s3]);
    expect(await get(`/v1/payment-sessions?q=${hex('22', 32)}`)).toEqual([s3]);
    expect(await get('/v1/payment-sessions?q=ALICE%40exa')).toEqual([s1]);
    expect(await get('/v1/payment-sessions?q=%25')).toEqual([]); // a LIKE wildcard is taken literally
    expect(await get(`/v1/payment-sessions?status=open&q=${hex('22', 32)}`)).toEqual([]);
  });

  it('subscriptions: status, created window, and q by id, subscriber, creating transaction and email prefix', async () => {
    const [a, b] = ids.subscriptions;
    expect(await get('/v1/subscriptions?status=cancelled')).toEqual([b]);
    expect(await get(`/v1/subscriptions?createdTo=${encodeURIComponent(DAY2.toISOString())}`)).toEqual([a]);
    expect(await get(`/v1/subscriptions?${window}`)).toEqual([]);
    expect(await get(`/v1/subscriptions?q=${b}`)).toEqual([b]);
    expect(await get(`/v1/subscriptions?q=${alice.wallet}`)).toEqual([a]);
    expect(await get(`/v1/subscriptions?q=${hex('44', 32)}`)).toEqual([b]);
    expect(await get('/v1/subscriptions?q=bob%40')).toEqual([b]);
  });

  it('customers: created window, and q by id, wallet (any case) and email prefix', async () => {
    const [a, b] = ids.customers;
    expect(await get(`/v1/customers?createdFrom=${encodeURIComponent(DAY3.toISOString())}`)).toEqual([b]);
    expect(await get(`/v1/customers?q=${a}`)).toEqual([a]);
    expect(await get(`/v1/customers?q=${bob.wallet}`)).toEqual([b]);
    expect(await get('/v1/customers?q=alice%40example.com')).toEqual([a]);
    expect(await get('/v1/customers?q=example')).toEqual([]); // a prefix, not a substring
  });

  it('invoices: status, created window, and q by id, number, paying transaction, payer and email prefix', async () => {
    const [a, b] = ids.invoices;
    expect(await get('/v1/invoices?status=paid')).toEqual([a]);
    expect(await get(`/v1/invoices?createdTo=${encodeURIComponent(DAY3.toISOString())}`)).toEqual([a]);
    expect(await get(`/v1/invoices?q=${b}`)).toEqual([b]);
    expect(await get('/v1/invoices?q=inv-2026-0002')).toEqual([b]);
    expect(await get(`/v1/invoices?q=${hex('11', 32)}`)).toEqual([a]);
    expect(await get(`/v1/invoices?q=${bob.wallet}`)).toEqual([b]);
    expect(await get('/v1/invoices?q=Alice')).toEqual([a]);
  });

  it('refunds: status, created window, and q by id, session id, wallet refunded to and transaction hash', async () => {
    const [a, b] = ids.refunds;
    expect(await get('/v1/refunds?status=pending')).toEqual([b]);
    expect(
      await get(`/v1/refunds?createdFrom=${encodeURIComponent(DAY1.toISOString())}&createdTo=${encodeURIComponent(DAY2.toISOString())}`),
    ).toEqual([a]);
    expect(await get(`/v1/refunds?q=${a}`)).toEqual([a]);
    expect(await get(`/v1/refunds?q=${ids.sessions[2]}`)).toEqual([b]);
    expect(await get(`/v1/refunds?q=${alice.wallet.toLowerCase()}`)).toEqual([a]);
    expect(await get(`/v1/refunds?q=${hex('55', 32)}`)).toEqual([a]);
  });

  it('chainId: sessions that accept the chain, subscriptions and charges on it, refunds sent on it', async () => {
    const [chargeOnA, chargeOnB] = onB.charges;
    expect(await get(`/v1/payment-sessions?chainId=${SECOND_CHAIN_ID}`)).toEqual([onB.session]);
    expect(await get(`/v1/payment-sessions?chainId=${CHAIN_A}`)).toEqual([...ids.sessions].reverse());
    expect(await get(`/v1/subscriptions?chainId=${SECOND_CHAIN_ID}`)).toEqual([onB.subscription]);
    expect(await get(`/v1/subscriptions?chainId=${CHAIN_A}`)).toEqual([...ids.subscriptions].reverse());
    expect(await get(`/v1/subscriptions?chainId=${SECOND_CHAIN_ID}&status=cancelled`)).toEqual([]);
    expect(await get(`/v1/subscription-charges?chainId=${SECOND_CHAIN_ID}`)).toEqual([chargeOnB]);
    expect(await get(`/v1/subscription-charges?chainId=${CHAIN_A}`)).toEqual([chargeOnA]);
    expect(await get(`/v1/subscription-charges?chainId=${CHAIN_A}&subscriptionId=${onB.subscription}`)).toEqual([]);
    expect(await get(`/v1/refunds?chainId=${SECOND_CHAIN_ID}`)).toEqual([onB.refund]);
    expect(await get(`/v1/refunds?chainId=${CHAIN_A}`)).toEqual([...ids.refunds].reverse());
  });

  it.each(['payment-sessions', 'subscriptions', 'subscription-charges', 'refunds'])(
    'GET /v1/%s refuses a chain the mode does not have (8453, a live chain) and a malformed one, naming chainId',
    async (path) => {
      for (const value of ['8453', 'base', '0']) {
        const response = await t.app.inject({ method: 'GET', url: `/v1/${path}?chainId=${value}`, headers: auth(m.secretKey) });
        expect(response.statusCode, `${value}: ${response.body}`).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'invalid_request', param: 'chainId' });
      }
    },
  );

  it('metadata[key]=value: exact pairs, all given must match, on payment sessions, coupons and promotion codes', async () => {
    const post = async (url: string, payload: Record<string, unknown>) => {
      const response = await t.app.inject({ method: 'POST', url, headers: auth(m.secretKey), payload });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().id as string;
    };
    await setPayoutAddress(db.sql, m.merchantId, hex('90', 20));
    const order1 = await post('/v1/payment-sessions', { amount: '1000000', metadata: { order: 'A-1', channel: 'web' } });
    const order2 = await post('/v1/payment-sessions', { amount: '1000000', metadata: { order: 'A-2', channel: 'web' } });
    // A value that only contains the one asked for, or differs in case, is not a match: exact.
    const near = await post('/v1/payment-sessions', { amount: '1000000', metadata: { order: 'a-1 ' } });
    expect(await get('/v1/payment-sessions?metadata[order]=A-1')).toEqual([order1]);
    expect(await get('/v1/payment-sessions?metadata%5Bchannel%5D=web')).toEqual([order2, order1]);
    expect(await get('/v1/payment-sessions?metadata[channel]=web&metadata[order]=A-2')).toEqual([order2]);
    expect(await get('/v1/payment-sessions?metadata[channel]=web&metadata[order]=a-1%20')).toEqual([]);
    expect(await get('/v1/payment-sessions?metadata[order]=a-1%20')).toEqual([near]);
    // Combined with the other filters, and only the key's merchant's objects.
    expect(await get('/v1/payment-sessions?metadata[order]=A-1&status=completed')).toEqual([]);
    expect(await get('/v1/payment-sessions?metadata[order]=A-1&status=open')).toEqual([order1]);

    const spring = await post('/v1/coupons', { percentOff: 10, duration: 'once', metadata: { campaign: 'spring' } });
    await post('/v1/coupons', { percentOff: 20, duration: 'once', metadata: { campaign: 'autumn' } });
    expect(await get('/v1/coupons?metadata[campaign]=spring')).toEqual([spring]);
    const code = await post('/v1/promotion-codes', { coupon: spring, code: 'SPRING10', metadata: { partner: 'blog' } });
    await post('/v1/promotion-codes', { coupon: spring, code: 'SPRING11' });
    expect(await get('/v1/promotion-codes?metadata[partner]=blog')).toEqual([code]);
    expect(await get('/v1/promotion-codes?metadata[partner]=blog&active=false')).toEqual([]);
  });

  it('metadata[key]=value on invoices and refunds: given at creation, returned on the object, exact pairs', async () => {
    await setPayoutAddress(db.sql, m.merchantId, hex('90', 20));
    const invoice = async (metadata?: Record<string, string>) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/invoices',
        headers: auth(m.secretKey),
        payload: { lineItems: [{ description: 'Hours', quantity: 1, unitAmount: '1000000' }], ...(metadata ? { metadata } : {}) },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { id: string; metadata: Record<string, string> };
    };
    const job1 = await invoice({ job: 'J-1', team: 'design' });
    const job2 = await invoice({ job: 'J-2', team: 'design' });
    const none = await invoice();
    expect(job1.metadata).toEqual({ job: 'J-1', team: 'design' });
    expect(none.metadata).toEqual({});
    expect(await get('/v1/invoices?metadata[job]=J-1')).toEqual([job1.id]);
    expect(await get('/v1/invoices?metadata[team]=design')).toEqual([job2.id, job1.id]);
    expect(await get('/v1/invoices?metadata[team]=design&metadata[job]=J-2')).toEqual([job2.id]);
    expect(await get('/v1/invoices?metadata[job]=j-1')).toEqual([]);
    expect(await get('/v1/invoices?metadata[job]=J-1&status=paid')).toEqual([]);
    const read = await t.app.inject({ method: 'GET', url: `/v1/invoices/${job1.id}`, headers: auth(m.secretKey) });
    expect(read.json().metadata).toEqual({ job: 'J-1', team: 'design' });

    // Refunds are created through the API in test/refunds (they need a paid session); here their stored metadata is filtered.
    const [tagged] = ids.refunds;
    await db.sql`update refunds set metadata = ${db.sql.json({ ticket: 'T-9' })} where id = ${tagged!}`;
    expect(await get('/v1/refunds?metadata[ticket]=T-9')).toEqual([tagged]);
    const [row] = await db.sql<{ status: string }[]>`select status from refunds where id = ${tagged!}`;
    const status = row!.status;
    const otherStatus = status === 'failed' ? 'succeeded' : 'failed';
    expect(await get(`/v1/refunds?metadata[ticket]=T-9&status=${status}`)).toEqual([tagged]);
    expect(await get(`/v1/refunds?metadata[ticket]=T-9&status=${otherStatus}`)).toEqual([]);
    expect(await get('/v1/refunds?metadata[ticket]=T-1')).toEqual([]);
    const refund = await t.app.inject({ method: 'GET', url: `/v1/refunds/${tagged}`, headers: auth(m.secretKey) });
    expect(refund.json().metadata).toEqual({ ticket: 'T-9' });
  });

  it('POST /v1/invoices/{id} and /v1/refunds/{id} merge metadata ("" removes a key) with invoice.updated / refund.updated, and refuse bad input changing nothing', async () => {
    await setPayoutAddress(db.sql, m.merchantId, hex('90', 20));
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/invoices',
      headers: auth(m.secretKey),
      payload: { lineItems: [{ description: 'Hours', quantity: 1, unitAmount: '1000000' }], metadata: { job: 'J-7', team: 'ops' } },
    });
    const invoiceId = created.json().id as string;
    const [refundId] = ids.refunds;
    await db.sql`update refunds set metadata = ${db.sql.json({ ticket: 'T-1' })} where id = ${refundId!}`;
    const update = (path: string, payload: unknown, key = m.secretKey) =>
      t.app.inject({ method: 'POST', url: `/v1/${path}`, headers: auth(key), payload: payload as object });

    const invoice = await update(`invoices/${invoiceId}`, { metadata: { team: '', po: 'PO-3' } });
    expect(invoice.statusCode, invoice.body).toBe(200);
    expect(invoice.json()).toMatchObject({ id: invoiceId, metadata: { job: 'J-7', po: 'PO-3' } });
    const refund = await update(`refunds/${refundId}`, { metadata: { agent: 'ana' } });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({ id: refundId, metadata: { ticket: 'T-1', agent: 'ana' } });
    // Nothing changed: 200, nothing sent.
    expect((await update(`refunds/${refundId}`, { metadata: { agent: 'ana' } })).statusCode).toBe(200);
    expect((await update(`invoices/${invoiceId}`, {})).json().metadata).toEqual({ job: 'J-7', po: 'PO-3' });

    const events = await db.sql<{ type: string; id: string; previous: unknown }[]>`
      select type, data->'object'->>'id' as id, data->'previousAttributes'->'metadata' as previous
      from events where type in ('invoice.updated', 'refund.updated') and merchant_id = ${m.merchantId} order by id`;
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'invoice.updated', id: invoiceId, previous: { job: 'J-7', team: 'ops' } },
        { type: 'refund.updated', id: refundId, previous: { ticket: 'T-1' } },
      ]),
    );

    for (const [path, payload, param] of [
      [`invoices/${invoiceId}`, { metadata: { n: 1 } }, 'metadata.n'],
      [`invoices/${invoiceId}`, { note: 'other field' }, undefined],
      [`refunds/${refundId}`, { metadata: { note: 'v'.repeat(501) } }, 'metadata.note'],
      [`refunds/${refundId}`, { amount: '1' }, undefined],
    ] as const) {
      const res = await update(path, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      if (param) expect(res.json().error.param).toBe(param);
    }
    const stranger = await seedMerchant(db.sql);
    expect((await update(`invoices/${invoiceId}`, { metadata: { a: 'b' } }, stranger.secretKey)).statusCode).toBe(404);
    expect((await update(`refunds/${refundId}`, { metadata: { a: 'b' } }, stranger.secretKey)).statusCode).toBe(404);
    const readOnly = await m.keyWithScopes(['invoices_read', 'refunds_read']);
    expect((await update(`invoices/${invoiceId}`, { metadata: { a: 'b' } }, readOnly)).json().error.code).toBe('permission_denied');
    const [inv] = await db.sql`select metadata from invoices where id = ${invoiceId}`;
    const [ref] = await db.sql`select metadata from refunds where id = ${refundId!}`;
    expect([inv!.metadata, ref!.metadata]).toEqual([
      { job: 'J-7', po: 'PO-3' },
      { ticket: 'T-1', agent: 'ana' },
    ]);
  });

  it('an invoice with bad metadata is invalid_request on metadata and creates nothing', async () => {
    const before = await db.sql`select count(*)::int as n from invoices where merchant_id = ${m.merchantId}`;
    for (const [metadata, param] of [
      [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])), 'metadata'],
      [{ note: 'v'.repeat(501) }, 'metadata.note'],
      [{ n: 1 }, 'metadata.n'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/invoices',
        headers: auth(m.secretKey),
        payload: { lineItems: [{ description: 'Hours', quantity: 1, unitAmount: '1000000' }], metadata },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'invalid_request', param });
      expect(response.json().error.details.issues.length).toBeGreaterThan(0);
    }
    const after = await db.sql`select count(*)::int as n from invoices where merchant_id = ${m.merchantId}`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it.each([
    ['payment-sessions', 'metadata[]=x', 'metadata'],
    ['payment-sessions', `metadata[${'k'.repeat(41)}]=x`, `metadata.${'k'.repeat(41)}`],
    ['payment-sessions', 'metadata[a]=1&metadata[a]=2', 'metadata.a'],
    ['payment-sessions', 'metadata=plain', 'metadata'],
    ['coupons', 'metadata[a=x', 'metadata.[a'],
    ['promotion-codes', `metadata[k]=${'v'.repeat(501)}`, 'metadata.k'],
    ['invoices', 'metadata[a]=1&metadata[a]=2', 'metadata.a'],
    ['invoices', 'metadata=plain', 'metadata'],
    ['refunds', `metadata[${'k'.repeat(41)}]=x`, `metadata.${'k'.repeat(41)}`],
    ['refunds', 'metadata[]=x', 'metadata'],
  ])('GET /v1/%s?%s is invalid_request on %s, nothing listed', async (path, query, param) => {
    const response = await t.app.inject({ method: 'GET', url: `/v1/${path}?${query}`, headers: auth(m.secretKey) });
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json();
    expect(error).toMatchObject({ code: 'invalid_request', param });
    expect(error.details.issues.length).toBeGreaterThan(0);
  });

  it('accepts every combination the dashboard sends, with a cursor', async () => {
    for (const path of ['payment-sessions', 'subscriptions', 'invoices', 'refunds']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/v1/${path}?limit=1&createdFrom=2026-02-28T23:00:00.000Z&createdTo=2026-03-04T23:00:00.000Z&q=0x&status=${path === 'refunds' ? 'pending' : path === 'invoices' ? 'sent' : path === 'subscriptions' ? 'active' : 'open'}`,
        headers: auth(m.secretKey),
      });
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    }
  });

  it.each([
    ['payment-sessions', 'status=paid', 'status'],
    ['payment-sessions', 'createdFrom=0000-00-00', 'createdFrom'],
    ['subscriptions', 'createdTo=2026-13-01T00:00:00Z', 'createdTo'],
    ['subscriptions', 'q=', 'q'],
    ['customers', 'createdFrom=yesterday', 'createdFrom'],
    ['customers', `q=${'x'.repeat(321)}`, 'q'],
    ['payment-sessions', 'q=a%00b', 'q'],
    ['invoices', 'status=refunded', 'status'],
    ['invoices', 'createdTo=2026-03-01', 'createdTo'],
    ['refunds', 'status=done', 'status'],
    ['refunds', 'createdFrom=2026-03-01T00:00:00', 'createdFrom'],
  ])('GET /v1/%s?%s is invalid_request on %s', async (path, query, param) => {
    const response = await t.app.inject({ method: 'GET', url: `/v1/${path}?${query}`, headers: auth(m.secretKey) });
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json();
    expect(error).toMatchObject({ code: 'invalid_request', param });
    expect(error.details.issues.length).toBeGreaterThan(0);
  });
});
