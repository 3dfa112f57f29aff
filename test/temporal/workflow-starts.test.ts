// Nothing doubled, nothing stuck: creates and sends that commit while Temporal
// is unreachable (a client pointed at a port where nothing listens) answer once,
// replay through their Idempotency-Key, and their workflow starts wait in the
// outbox of starts until the outbox sweep, run with a working client on the dev
// server, performs them. The daily invoice Schedule repairs invoices whose
// workflow is missing or whose email never went out.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import type { ChainConfig } from '../../src/chain/config.js';
import { freePort } from '../../tools/dev/ports.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { ensureSchedule, SCHEDULES } from '../../src/temporal/schedules.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { invoiceSweepWorkflow } from '../../workflows/invoice.js';
import { until } from '../support/until.js';

let db: TestDatabase;
let sink: SmtpSink;
let mailer: Mailer;
let chain: ChainConfig;
let temporal: DevServerWorker;
/** The api while Temporal is down: its client points at a port where nothing listens. */
let down: TestApp;
let downClient: Client;
/** The api while Temporal is up. */
let up: TestApp;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  chain = { test: settingsOf(sharedChain()) };
  temporal = await startDevServerWorker(db.sql, { chain, mailer });
  downClient = new Client({ connection: Connection.lazy({ address: `127.0.0.1:${await freePort()}` }) });
  const env = { PUBLIC_BASE_URL: 'https://pay.example.test' };
  down = await createTestApp(db.sql, { temporal: downClient, taskQueue: temporal.taskQueue, chain, env });
  up = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain, env });
  merchant = await seedMerchant(db.sql);
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
});
afterAll(async () => {
  await down?.close();
  await up?.close();
  // downClient's connection is left open: the client retries its failed calls for about 20 s in the
  // background, and a retry on a closed channel throws outside any test ("Channel has been shut down").
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await db?.drop();
});

const post = (app: TestApp, url: string, payload: Record<string, unknown>, key?: string) =>
  app.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${merchant.secretKey}`, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });

const invoiceBody = () => ({
  customerName: 'Ada Customer',
  customerEmail: `ada-${randomBytes(4).toString('hex')}@example.com`,
  currency: 'USDC',
  lineItems: [{ description: 'Consulting', quantity: 1, unitAmount: '1500000' }],
  dueInDays: 3,
});

const pendingStarts = async (workflowId: string) =>
  (
    await db.sql<
      { action: string }[]
    >`select action from workflow_starts where workflow_id = ${workflowId} and done_at is null order by created_at`
  ).map((r) => r.action);

async function runOutboxSweep(): Promise<number> {
  return temporal.client.workflow.execute('outboxSweepWorkflow', {
    workflowId: `sweep-${randomBytes(4).toString('hex')}`,
    taskQueue: temporal.taskQueue,
    args: [{ olderThanSeconds: 0 }],
  });
}

async function status(workflowId: string): Promise<string> {
  return (await temporal.client.workflow.getHandle(workflowId).describe()).status.name;
}

const eventsOf = async (type: string, invoiceId: string) =>
  db.sql`select id from events where merchant_id = ${merchant.merchantId} and type = ${type} and data->'object'->>'id' = ${invoiceId}`;

describe('creates while Temporal is unreachable', () => {
  it('a payment session and an invoice are created once, replayed by their Idempotency-Key, and their workflows started by the sweep', async () => {
    const sessionKey = `ps-${randomBytes(4).toString('hex')}`;
    const first = await post(down, '/v1/payment-sessions', { amount: '1000000', currency: 'USDC' }, sessionKey);
    expect(first.statusCode, first.body).toBe(200);
    const retry = await post(down, '/v1/payment-sessions', { amount: '1000000', currency: 'USDC' }, sessionKey);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().id).toBe(first.json().id);
    const session = first.json();

    const invoiceKey = `inv-${randomBytes(4).toString('hex')}`;
    const body = invoiceBody();
    const began = Date.now();
    const created = await post(down, '/v1/invoices', body, invoiceKey);
    expect(created.statusCode, created.body).toBe(200);
    // The api does not wait out the client's retries of an unreachable server (about 20 s).
    expect(Date.now() - began).toBeLessThan(10_000);
    const replayed = await post(down, '/v1/invoices', body, invoiceKey);
    expect(replayed.statusCode, replayed.body).toBe(200);
    expect(replayed.json().id).toBe(created.json().id);
    const invoice = created.json();

    const [counts] = await db.sql<{ sessions: number; invoices: number }[]>`
      select (select count(*)::int from payment_sessions where merchant_id = ${merchant.merchantId} and amount = 1000000) as sessions,
             (select count(*)::int from invoices where merchant_id = ${merchant.merchantId} and customer_email = ${body.customerEmail}) as invoices`;
    expect(counts).toEqual({ sessions: 1, invoices: 1 });
    expect(await pendingStarts(session.id)).toEqual(['start']);
    expect(await pendingStarts(invoice.sessionId)).toEqual(['start']);
    expect(await pendingStarts(invoice.id)).toEqual(['start']);

    // Temporal is back: the sweep (a working client) starts every workflow, once.
    expect(await runOutboxSweep()).toBeGreaterThanOrEqual(3);
    for (const id of [session.id, invoice.sessionId, invoice.id]) {
      expect(await status(id)).toBe('RUNNING');
      expect(await pendingStarts(id)).toEqual([]);
    }
    // The running workflows do their work: voiding the invoice ends both of its workflows.
    const voided = await post(up, `/v1/invoices/${invoice.id}/void`, {});
    expect(voided.statusCode, voided.body).toBe(200);
    await until(
      () => status(invoice.id),
      (s) => s === 'COMPLETED',
      'the invoice workflow to end',
    );
    await until(
      () => status(invoice.sessionId),
      (s) => s === 'COMPLETED',
      'the session workflow to end',
    );
    await temporal.client.workflow.getHandle(session.id).terminate('test over');
  });

  it('an invoice sent while Temporal is unreachable is not left sent without an email: the sweep delivers it once', async () => {
    const invoice = (await post(up, '/v1/invoices', invoiceBody())).json();
    const key = `send-${randomBytes(4).toString('hex')}`;
    const sent = await post(down, `/v1/invoices/${invoice.id}/send`, {}, key);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ status: 'sent', sentAt: null });
    const again = await post(down, `/v1/invoices/${invoice.id}/send`, {}, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await pendingStarts(invoice.id)).toEqual(['sendInvoice']);
    expect(sink.messages().filter((m) => m.to.includes(invoice.customerEmail))).toHaveLength(0);

    await runOutboxSweep();
    const mail = await sink.waitFor((m) => m.to.includes(invoice.customerEmail), 30_000);
    expect(mail.subject).toContain(invoice.number);
    const [row] = await until(
      () => db.sql<{ sentAt: Date | null }[]>`select sent_at as "sentAt" from invoices where id = ${invoice.id}`,
      (rows) => rows[0]?.sentAt != null,
      'invoice.sent',
    );
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(await eventsOf('invoice.sent', invoice.id)).toHaveLength(1);
    expect(await pendingStarts(invoice.id)).toEqual([]);

    // A second sweep (or a repeated send signal) sends nothing more.
    await runOutboxSweep();
    await temporal.client.workflow.getHandle(invoice.id).signal('sendInvoice');
    await new Promise((r) => setTimeout(r, 1500));
    expect(sink.messages().filter((m) => m.to.includes(invoice.customerEmail))).toHaveLength(1);
    expect(await eventsOf('invoice.sent', invoice.id)).toHaveLength(1);
    await temporal.client.workflow.getHandle(invoice.id).terminate('test over');
  });
});

describe('the daily invoice Schedule', () => {
  it('is registered as a daily Schedule of invoiceSweepWorkflow and repairs missing workflows, lost emails and overdue invoices', async () => {
    const definition = SCHEDULES.find((s) => s.id === 'invoice-daily');
    expect(definition).toMatchObject({ workflow: invoiceSweepWorkflow, every: '1 day' });

    // A draft whose workflow was lost.
    const draft = (await post(up, '/v1/invoices', invoiceBody())).json();
    await temporal.client.workflow.getHandle(draft.id).terminate('lost');
    // A sent invoice, past due, whose workflow was lost before its email went out.
    const stuck = (await post(up, '/v1/invoices', invoiceBody())).json();
    await temporal.client.workflow.getHandle(stuck.id).terminate('lost');
    const sent = await post(down, `/v1/invoices/${stuck.id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    await db.sql`update workflow_starts set done_at = now() where workflow_id = ${stuck.id}`; // the queued send is lost too
    await db.sql`update invoices set due_at = now() - interval '1 hour' where id = ${stuck.id}`;

    const id = `${definition!.id}-${randomBytes(4).toString('hex')}`;
    await ensureSchedule(temporal.client, temporal.taskQueue, { ...definition!, id });
    const handle = temporal.client.schedule.getHandle(id);
    try {
      const described = await handle.describe();
      expect(described.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'invoiceSweepWorkflow',
        taskQueue: temporal.taskQueue,
      });
      expect(described.spec.intervals?.[0]?.every).toBe(86_400_000);

      await handle.trigger();
      const run = await until(
        async () => (await handle.describe()).info.recentActions.at(-1)?.action.workflow,
        (w) => w !== undefined,
        'the schedule to start its run',
      );
      const result = await temporal.client.workflow.getHandle(run!.workflowId, run!.firstExecutionRunId).result();
      expect(result.restarted).toBeGreaterThanOrEqual(1);
      expect(result.resent).toBeGreaterThanOrEqual(1);
      expect(result.overdue).toBeGreaterThanOrEqual(1);
    } finally {
      await handle.delete();
    }

    expect(await status(draft.id)).toBe('RUNNING');
    expect(await status(stuck.id)).toBe('RUNNING');
    await sink.waitFor((m) => m.to.includes(stuck.customerEmail), 30_000);
    const repaired = await until(
      () => db.sql<{ status: string; sentAt: Date | null }[]>`select status, sent_at as "sentAt" from invoices where id = ${stuck.id}`,
      (rows) => rows[0]?.sentAt != null,
      'the repaired send',
    );
    expect(repaired[0]!.status).toBe('overdue');
    expect(await eventsOf('invoice.overdue', stuck.id)).toHaveLength(1);
    expect(await eventsOf('invoice.sent', stuck.id)).toHaveLength(1);
    for (const invoice of [draft, stuck]) await temporal.client.workflow.getHandle(invoice.id).terminate('test over');
  });
});
