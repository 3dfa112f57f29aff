// The objects a test clock governs besides a subscription's charges (issue #30), on the real
// Temporal dev server, a private anvil (a clock moves chain time), Postgres and an SMTP sink:
//   an invoice created on a clock goes overdue when the clock passes its dueAt, and not before;
//   a payment session created on a clock expires when the clock passes its expiresAt;
//   a subscription on a clock records its cancel at the clock's time (business time);
//   deleting the clock voids its open invoices, expires its open sessions and cancels its
//   subscriptions, after which the clock is not_found; objects off the clock are untouched.
import type { Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainConfig } from '../../src/chain/config.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { onSubscriptionCreatedOnChain, type SubscriptionChainEventDeps } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import { newPayer, startTestChain, type TestChain } from '../support/subscriptions.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

let db: TestDatabase;
let chain: TestChain;
let sink: SmtpSink;
let mailer: Mailer;
let temporal: DevServerWorker;
let client: Client;
let taskQueue: string;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let deps: SubscriptionChainEventDeps;

beforeAll(async () => {
  db = await createTestDatabase();
  chain = await startTestChain(db.sql);
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  const settings = devChainSettings({ ...chain.deployed, rpcUrl: chain.anvil.rpcUrl, startBlock: chain.deployed.deployBlock });
  const chainConfig: ChainConfig = { test: settings };
  temporal = await startDevServerWorker(db.sql, { chain: chainConfig, subscriptionChain: chain.subscriptionChain, mailer });
  ({ client, taskQueue } = temporal);
  // The clock moves the test chain: its subscriptions are enrolled there, straight on the chain.
  t = await createTestApp(db.sql, { temporal: client, taskQueue, chain: chainConfig, env: { TEST_CLOCK_CHAINS: 'shared' } });
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  deps = {
    sql: db.sql,
    temporal: client,
    taskQueue,
    events: { dispatch: async () => {} },
    modes: { test: chain.mode },
  };
}, 180_000);

afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await chain?.stop();
  await db?.drop();
});

const call = (key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => call(merchant.secretKey, method, url, payload);
const read = async (path: string) => (await api('GET', path)).json();

async function eventually<T>(get: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const eventsAbout = (type: string, objectId: string) =>
  db.sql<{ testClock: string | null }[]>`
    select data->>'testClock' as "testClock" from events
    where merchant_id = ${merchant.merchantId} and type = ${type} and data->'object'->>'id' = ${objectId}`;

async function createInvoice(body: object) {
  const response = await api('POST', '/v1/invoices', {
    customerName: 'Ada',
    customerEmail: `ada-${randomBytes(3).toString('hex')}@example.com`,
    lineItems: [{ description: 'Consulting', quantity: 1, unitAmount: '5000000' }],
    ...body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function createSession(body: object) {
  const response = await api('POST', '/v1/payment-sessions', { amount: '1000000', ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('objects on a test clock', () => {
  it('invoices go overdue and sessions expire on the clock; a cancel is at clock time; deleting the clock ends them all', async () => {
    const start = Math.ceil(((await chain.chainNowMs()) + HOUR) / 1000) * 1000;
    const [payerA, payerB] = [newPayer(), newPayer()];
    const created = await api('POST', '/v1/test-clocks', {
      name: 'Objects',
      frozenTime: iso(start),
      wallets: [payerA.address, payerB.address],
    });
    expect(created.statusCode, created.body).toBe(200);
    const clock = created.json();
    const advance = async (toMs: number) => {
      const response = await api('POST', `/v1/test-clocks/${clock.id}/advance`, { frozenTime: iso(toMs) });
      expect(response.statusCode, response.body).toBe(200);
      await eventually(
        () => read(`/v1/test-clocks/${clock.id}`),
        (c) => c.status === 'ready',
        `the clock at ${iso(toMs)}`,
      );
    };

    // Created on the clock: due date and expiry count from the clock's time, not the wall's.
    const invoice = await createInvoice({ dueInDays: 10, testClock: clock.id });
    expect(invoice).toMatchObject({ testClock: clock.id, dueAt: iso(start + 10 * DAY) });
    expect((await api('POST', `/v1/invoices/${invoice.id}/send`)).statusCode).toBe(200);
    await eventually(
      () => read(`/v1/invoices/${invoice.id}`),
      (i) => i.sentAt !== null,
      'the invoice email accepted',
    );
    const session = await createSession({ expiresInSeconds: 3600, testClock: clock.id });
    expect(session).toMatchObject({ testClock: clock.id, expiresAt: iso(start + HOUR), status: 'open' });
    // Off the clock: wall time, untouched by the clock.
    const wallSession = await createSession({ expiresInSeconds: 3600 });
    expect(wallSession.testClock).toBeNull();
    expect(Math.abs(Date.parse(wallSession.expiresAt) - (Date.now() + HOUR))).toBeLessThan(60_000);
    const wallInvoice = await createInvoice({ dueInDays: 1 });
    expect(wallInvoice.testClock).toBeNull();
    expect((await api('POST', `/v1/invoices/${wallInvoice.id}/send`)).statusCode).toBe(200);

    // Two subscriptions of wallets on the clock, in a long trial (nothing is charged here).
    const plan = (
      await api('POST', '/v1/subscription-plans', { name: 'Monthly', amount: '10000000', interval: 'monthly', trialPeriodDays: 60 })
    ).json();
    const trialEnd = BigInt(start / 1000) + 60n * 86_400n;
    const subscriptionOf = async (payer: ReturnType<typeof newPayer>) => {
      const log = await chain.enrol({
        payer,
        amount: 10_000_000n,
        period: BigInt(onChainPeriodSecondsV2('monthly', 1)),
        periods: 0,
        trialEnd,
        permitValue: 120_000_000n,
      });
      const enrolled = await onSubscriptionCreatedOnChain(deps, { ...log, planId: plan.id });
      if (enrolled.outcome === 'ignored') throw new Error(`enrolment ignored: ${enrolled.reason}`);
      return enrolled.subscriptionId;
    };
    const [subscriptionA, subscriptionB] = [await subscriptionOf(payerA), await subscriptionOf(payerB)];
    expect((await read(`/v1/subscriptions/${subscriptionA}`)).status).toBe('trialing');

    // Before expiresAt on the clock the session stays open; past it, it is expired once the clock is ready.
    await advance(start + 30 * 60_000);
    expect((await read(`/v1/payment-sessions/${session.id}`)).status).toBe('open');
    await advance(start + HOUR + 1000);
    expect((await read(`/v1/payment-sessions/${session.id}`)).status).toBe('expired');
    expect((await read(`/v1/payment-sessions/${wallSession.id}`)).status).toBe('open');

    // The invoice: still sent a day before dueAt on the clock, overdue (with its event naming the clock) past it.
    await advance(start + 9 * DAY);
    expect((await read(`/v1/invoices/${invoice.id}`)).status).toBe('sent');
    expect(await eventsAbout('invoice.overdue', invoice.id)).toHaveLength(0);
    await advance(start + 10 * DAY + 1000);
    expect((await read(`/v1/invoices/${invoice.id}`)).status).toBe('overdue');
    expect(await eventsAbout('invoice.overdue', invoice.id)).toEqual([{ testClock: clock.id }]);
    expect((await read(`/v1/invoices/${wallInvoice.id}`)).status).toBe('sent');
    // The clock's events, as the dashboard's timeline lists them: only what the clock produced.
    const fired = (await read(`/v1/events?testClock=${clock.id}&limit=100`)).data as {
      type: string;
      objectId: string;
      data: { testClock: string };
    }[];
    expect(fired.map((e) => `${e.type} ${e.objectId}`)).toContain(`invoice.overdue ${invoice.id}`);
    expect(fired.every((e) => e.data.testClock === clock.id)).toBe(true);
    expect(fired.map((e) => e.objectId)).not.toContain(wallInvoice.id);
    const badFilter = await api('GET', '/v1/events?testClock=nope');
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().error).toMatchObject({ code: 'invalid_request', param: 'testClock' });

    // Business time: a cancel on the clock is recorded at the clock's time, not the wall's.
    const cancelled = await api('POST', `/v1/subscriptions/${subscriptionA}/cancel`, { reason: 'Testing' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().cancelledAt).toBe(iso(start + 10 * DAY + 1000));

    // Deleting: another merchant cannot, and the owner's delete ends what is on the clock.
    const openSession = await createSession({ expiresInSeconds: 3600, testClock: clock.id });
    expect((await call(other.secretKey, 'POST', `/v1/test-clocks/${clock.id}/delete`)).statusCode).toBe(404);
    expect((await call(other.secretKey, 'DELETE', `/v1/test-clocks/${clock.id}`)).statusCode).toBe(404);
    const deleted = await api('DELETE', `/v1/test-clocks/${clock.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ id: clock.id, status: 'deleted' });
    expect((await read(`/v1/invoices/${invoice.id}`)).status).toBe('void');
    expect((await read(`/v1/payment-sessions/${invoice.sessionId}`)).status).toBe('cancelled');
    await eventually(
      () => read(`/v1/payment-sessions/${openSession.id}`),
      (s) => s.status === 'expired',
      'the open session expired',
    );
    const ended = await eventually(
      () => read(`/v1/subscriptions/${subscriptionB}`),
      (s) => s.status === 'cancelled',
      'subscription B cancelled',
    );
    expect(ended.cancelledBy).toBe('system');
    // The clock is gone; what was never on it is as it was.
    const gone = await api('GET', `/v1/test-clocks/${clock.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toMatchObject({ code: 'not_found', param: 'id' });
    expect((await api('POST', '/v1/payment-sessions', { amount: '1000000', testClock: clock.id })).statusCode).toBe(404);
    expect((await read(`/v1/payment-sessions/${wallSession.id}`)).status).toBe('open');
    expect((await read(`/v1/invoices/${wallInvoice.id}`)).status).toBe('sent');

    // Each clock-aware run ended (nothing left waiting on a deleted clock).
    for (const id of [invoice.id, session.id, openSession.id, subscriptionB]) {
      await eventually(
        async () => (await client.workflow.getHandle(id).describe()).status.name,
        (s) => s === 'COMPLETED',
        `workflow ${id} completed`,
      );
    }
    // Histories of the clock-aware shapes, for the replay test (RECORD_HISTORIES=1).
    await recordHistory(client.workflow.getHandle(invoice.id), 'invoice-test-clock-overdue-void', 'base');
    await recordHistory(client.workflow.getHandle(session.id), 'payment-session-test-clock-expired', 'base');
    await recordHistory(client.workflow.getHandle(openSession.id), 'payment-session-test-clock-deleted', 'base');
  }, 150_000);

  it("refuses a testClock that is not the caller's, or in live mode, with the envelope and creates nothing", async () => {
    const foreign = (
      await call(other.secretKey, 'POST', '/v1/test-clocks', { name: 'Theirs', frozenTime: iso((await chain.chainNowMs()) + HOUR) })
    ).json();
    const before = (await db.sql`select (select count(*) from payment_sessions)::int as s, (select count(*) from invoices)::int as i`)[0]!;
    const cases: [string, number, string, object][] = [
      ['/v1/payment-sessions', 404, 'not_found', { amount: '1000000', testClock: foreign.id }],
      ['/v1/invoices', 404, 'not_found', { lineItems: [{ description: 'x', quantity: 1, unitAmount: '1' }], testClock: foreign.id }],
      ['/v1/payment-sessions', 400, 'invalid_request', { amount: '1000000', testClock: 'not-a-clock' }],
    ];
    for (const [url, status, code, body] of cases) {
      const response = await api('POST', url, body);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error).toMatchObject({ code, param: 'testClock' });
    }
    const live = await call(merchant.liveSecretKey, 'POST', '/v1/payment-sessions', { amount: '1000000', testClock: foreign.id });
    expect(live.statusCode).toBe(400);
    expect(live.json().error).toMatchObject({ code: 'invalid_request', param: 'testClock' });
    const after = (await db.sql`select (select count(*) from payment_sessions)::int as s, (select count(*) from invoices)::int as i`)[0]!;
    expect(after).toEqual(before);
  });
});
