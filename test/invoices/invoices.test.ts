// Invoice lifecycle on the time-skipping server: the real app creates, sends
// and voids; a real worker runs invoiceWorkflow and paymentSessionWorkflow,
// delivers the email to a real SMTP sink, and the dueAt timer is skipped
// through. Numbers are checked under 100 concurrent creates.
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import type { ChainConfig } from '../../src/chain/config.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { createWorker } from '../../src/temporal/worker.js';
import { TASK_QUEUES } from '../../src/temporal/task-queues.js';
import { testWebhookSettings, workflowBundle } from '../support/temporal.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { paymentConfirmedSignal } from '../../workflows/payment-session.js';
import { recordHistory } from '../support/histories.js';
import { until } from '../support/until.js';

/** Shapes of the invoice and payment-session workflows recorded for the replay test (test/support/histories.ts). */
const INVOICE_SHAPE = 'base';
const SESSION_SHAPE = 'base';

let env: TestWorkflowEnvironment;
let bundle: { code: string };
let db: TestDatabase;
let sink: SmtpSink;
let mailer: Mailer;
let t: TestApp;
let merchant: SeededMerchant;
let chain: ChainConfig;

beforeAll(async () => {
  bundle = await workflowBundle();
  db = await createTestDatabase();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  chain = { test: settingsOf(sharedChain()) };
});
afterAll(async () => {
  mailer?.close();
  await sink?.stop();
  await db?.drop();
});

beforeEach(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
  });
  t = await createTestApp(db.sql, { temporal: env.client, chain, env: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
  merchant = await seedMerchant(db.sql);
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
});
afterEach(async () => {
  await t?.close();
  await env?.teardown();
});

function worker(): Promise<Worker> {
  return createWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    sql: db.sql,
    temporal: env.client,
    workflowBundle: bundle,
    taskQueue: TASK_QUEUES.main,
    mailer,
    webhooks: testWebhookSettings(),
    publicBaseUrl: 'https://pay.example.test',
  });
}

const auth = (key = merchant.secretKey) => ({ authorization: `Bearer ${key}` });

async function createInvoice(body: Record<string, unknown> = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/invoices',
    headers: auth(),
    payload: {
      customerName: 'Ada Customer',
      customerEmail: `ada-${Math.random().toString(36).slice(2)}@example.com`,
      currency: 'USDC',
      lineItems: [
        { description: 'Consulting', quantity: 3, unitAmount: '1500000' },
        { description: 'Fee', quantity: 1, unitAmount: '250' },
      ],
      note: 'Thanks!',
      dueInDays: 3,
      ...body,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const getInvoice = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/invoices/${id}`, headers: auth() })).json();
const getSession = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${id}`, headers: auth() })).json();
const eventsOf = async (type: string, invoiceId: string) =>
  db.sql`select id from events where merchant_id = ${merchant.merchantId} and type = ${type} and data->'object'->>'id' = ${invoiceId}`;

describe('invoices', () => {
  it('created -> sent (email accepted by SMTP, then invoice.sent) -> overdue after dueInDays -> void', async () => {
    const invoice = await createInvoice();
    expect(invoice).toMatchObject({ status: 'draft', subtotal: '4500250', total: '4500250', currency: 'USDC', dueInDays: 3, sentAt: null });
    expect(invoice.number).toMatch(/^\d{4}-0001$/);
    expect(invoice.number.slice(0, 4)).toBe(String(new Date().getUTCFullYear()));
    expect(Date.parse(invoice.dueAt) - Date.parse(invoice.createdAt)).toBeGreaterThanOrEqual(3 * 86_400_000 - 1000);
    expect(invoice.payUrl).toBe(`https://pay.example.test/checkout/${invoice.sessionId}`);
    expect(invoice.hostedInvoiceUrl).toBe(`https://pay.example.test/checkout/${invoice.sessionId}/invoice`);
    expect(await eventsOf('invoice.created', invoice.id)).toHaveLength(1);
    const session = await getSession(invoice.sessionId);
    expect(session).toMatchObject({ status: 'open', amount: '4500250', payTo: DEV_ACCOUNTS.merchant.address, invoiceId: invoice.id });

    const w = await worker();
    await w.runUntil(async () => {
      const sent = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/send`, headers: auth() });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().status).toBe('sent');
      const mail = await sink.waitFor((m) => m.to.includes(invoice.customerEmail), 30_000);
      expect(mail.subject).toContain(invoice.number);
      expect(mail.text).toContain(invoice.payUrl);
      expect(mail.text).toContain(invoice.hostedInvoiceUrl);
      // Money as money: 4500250 base units read "4.50025 USDC", never "4.500250 USDC".
      expect(mail.text).toContain('for 4.50025 USDC,');
      const delivered = await until(
        () => getInvoice(invoice.id),
        (i) => i.sentAt !== null,
        'invoice.sent',
      );
      expect(delivered.status).toBe('sent');
      expect(await eventsOf('invoice.sent', invoice.id)).toHaveLength(1);
      expect(await eventsOf('invoice.overdue', invoice.id)).toHaveLength(0);

      // Sending a sent invoice again emails the customer once more and changes nothing else.
      const resent = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/send`, headers: auth() });
      expect(resent.statusCode, resent.body).toBe(200);
      expect(resent.json()).toMatchObject({ status: 'sent', sentAt: delivered.sentAt });
      await until(
        async () => sink.messages({ to: invoice.customerEmail }).filter((m) => m.subject.includes(invoice.number)),
        (mails) => mails.length === 2,
        'the second email',
      );
      expect(await eventsOf('invoice.sent', invoice.id)).toHaveLength(1);

      await env.sleep('3 days');
      const overdue = await until(
        () => getInvoice(invoice.id),
        (i) => i.status === 'overdue',
        'overdue',
      );
      expect(overdue.status).toBe('overdue');
      expect(await eventsOf('invoice.overdue', invoice.id)).toHaveLength(1);

      const voided = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/void`, headers: auth() });
      expect(voided.statusCode, voided.body).toBe(200);
      expect(voided.json()).toMatchObject({ status: 'void' });
      expect((await getSession(invoice.sessionId)).status).toBe('cancelled');
      expect(await env.client.workflow.getHandle(invoice.id).result()).toBe('void');
      expect(await env.client.workflow.getHandle(invoice.sessionId).result()).toBe('cancelled');
      await recordHistory(env.client.workflow.getHandle(invoice.id), 'invoice-sent-overdue-void', INVOICE_SHAPE);
      await recordHistory(env.client.workflow.getHandle(invoice.sessionId), 'payment-session-cancelled', SESSION_SHAPE);
    });

    const listed = (await t.app.inject({ method: 'GET', url: '/v1/invoices?status=void', headers: auth() })).json();
    expect(listed.data.map((i: { id: string }) => i.id)).toEqual([invoice.id]);
    const again = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/void`, headers: auth() });
    expect(again.statusCode).toBe(403);
    // A void invoice is not sent again: refused, and nothing is queued.
    const emails = await db.sql`select count(*)::int as n from outbound_emails where to_address = ${invoice.customerEmail}`;
    const voidSend = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/send`, headers: auth() });
    expect(voidSend.statusCode).toBe(403);
    expect(voidSend.json().error).toMatchObject({ code: 'session_invalid_state', param: 'id' });
    expect(await db.sql`select count(*)::int as n from outbound_emails where to_address = ${invoice.customerEmail}`).toEqual(emails);
  });

  it('refuses to send without customerEmail (403 session_invalid_state) and changes nothing', async () => {
    const invoice = await createInvoice({ customerEmail: undefined });
    const response = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/send`, headers: auth() });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'session_invalid_state', param: 'customerEmail' });
    expect((await getInvoice(invoice.id)).status).toBe('draft');
    const scoped = await merchant.keyWithScopes(['invoices_read']);
    const denied = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/send`, headers: auth(scoped) });
    expect(denied.json().error.code).toBe('permission_denied');
  });

  it('is paid when its session completes, and a paid invoice cannot be voided', async () => {
    const invoice = await createInvoice();
    const w = await worker();
    await w.runUntil(async () => {
      // The session's confirmation signal, as reportRelayOutcomeToSession sends it (the anvil path is in checkout.test.ts).
      await env.client.workflow.getHandle(invoice.sessionId).signal(paymentConfirmedSignal, { transactionHash: `0x${'ab'.repeat(32)}` });
      expect(await env.client.workflow.getHandle(invoice.id).result()).toBe('paid');
      await recordHistory(env.client.workflow.getHandle(invoice.id), 'invoice-paid', INVOICE_SHAPE);
      await recordHistory(env.client.workflow.getHandle(invoice.sessionId), 'payment-session-completed', SESSION_SHAPE);
    });
    const paid = await getInvoice(invoice.id);
    expect(paid.status).toBe('paid');
    expect((await getSession(invoice.sessionId)).status).toBe('completed');
    expect(await eventsOf('invoice.paid', invoice.id)).toHaveLength(1);
    const response = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/void`, headers: auth() });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('session_invalid_state');
    expect((await getInvoice(invoice.id)).status).toBe('paid');
  });

  it('gives 100 concurrent creates 100 distinct consecutive numbers', async () => {
    const plain = await createTestApp(db.sql, { chain });
    try {
      const own = await seedMerchant(db.sql, 'Numbers');
      await setPayoutAddress(db.sql, own.merchantId, DEV_ACCOUNTS.merchant.address);
      const responses = await Promise.all(
        Array.from({ length: 100 }, () =>
          plain.app.inject({
            method: 'POST',
            url: '/v1/invoices',
            headers: auth(own.secretKey),
            payload: { lineItems: [{ description: 'x', quantity: 1, unitAmount: '1' }] },
          }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(100).fill(200));
      const year = new Date().getUTCFullYear();
      const numbers = responses.map((r) => r.json().number as string).sort();
      expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => `${year}-${String(i + 1).padStart(4, '0')}`));
    } finally {
      await plain.close();
    }
  });

  it('refuses an invoice (and a session) when the merchant has no payout address', async () => {
    await setPayoutAddress(db.sql, merchant.merchantId, null);
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/invoices',
      headers: auth(),
      payload: { lineItems: [{ description: 'x', quantity: 1, unitAmount: '1' }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/payout address/);
    const session = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: auth(merchant.publishableKey),
      payload: { amount: '5' },
    });
    expect(session.statusCode).toBe(400);
    expect((await db.sql`select count(*)::int as n from invoices where merchant_id = ${merchant.merchantId}`)[0]!.n).toBe(0);
  });
});

describe('payment session expiry', () => {
  it('expires an unpaid session at expiresAt (timer on the time-skipping server)', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: auth(merchant.publishableKey),
      payload: { amount: '100', expiresInSeconds: 600 },
    });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json();
    expect(session.status).toBe('open');
    const w = await worker();
    await w.runUntil(async () => {
      expect(await env.client.workflow.getHandle(session.id).result()).toBe('expired');
      await recordHistory(env.client.workflow.getHandle(session.id), 'payment-session-expired', SESSION_SHAPE);
    });
    expect((await getSession(session.id)).status).toBe('expired');
    const tooShort = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: auth(),
      payload: { amount: '100', expiresInSeconds: 10 },
    });
    expect(tooShort.statusCode).toBe(400);
  });
});
