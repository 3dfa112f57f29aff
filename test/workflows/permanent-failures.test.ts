// Permanent failures are not retried forever: activities throw non-retryable
// ApplicationFailures with typed names (src/temporal/failures.ts) for errors
// that cannot heal, and the workflows that call them end instead of waiting
// or retrying. Real Postgres, a real SMTP server that refuses a recipient, and
// a real worker on the time-skipping server.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment, TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, type Worker } from '@temporalio/worker';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { queueEmail } from '../../src/email/service.js';
import { createMerchant } from '../../src/merchants/service.js';
import { PERMANENT_FAILURES } from '../../src/temporal/failures.js';
import { createWorker } from '../../src/temporal/worker.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { testWebhookSettings, workflowBundle } from '../support/temporal.js';

const TASK_QUEUE = 'permanent-failures';

let env: TestWorkflowEnvironment;
let db: TestDatabase;
let smtp: SMTPServer;
let mailer: Mailer;

beforeAll(async () => {
  db = await createTestDatabase();
  // An SMTP server that refuses every recipient at example.invalid for good (550), like a real one.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@example.invalid')) {
        callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const port = (smtp.server.address() as AddressInfo).port;
  mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'StablePay <no-reply@stablepay.local>' });
  env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
  });
});

/** A worker per workflow run (a worker that ran until a promise has shut down). */
async function newWorker(): Promise<Worker> {
  return createWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    sql: db.sql,
    temporal: env.client,
    workflowBundle: await workflowBundle(),
    taskQueue: TASK_QUEUE,
    mailer,
    webhooks: testWebhookSettings(),
  });
}
afterAll(async () => {
  await env?.teardown();
  mailer?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await db?.drop();
});

/** Runs a workflow to its result; a workflow that would retry or wait forever fails the test at the deadline. */
async function run<T>(workflowType: string, workflowId: string, args: unknown[]): Promise<T> {
  const worker = await newWorker();
  return worker.runUntil(async () => {
    const handle = await env.client.workflow.start(workflowType, { workflowId, taskQueue: TASK_QUEUE, args });
    const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${workflowType} did not end`)), 20_000));
    try {
      return (await Promise.race([handle.result(), deadline])) as T;
    } finally {
      await handle.terminate('test over').catch(() => undefined);
    }
  });
}

async function failureOf(work: () => Promise<unknown>): Promise<ApplicationFailure> {
  const error = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

describe('permanent failures', () => {
  it('activities throw non-retryable typed failures for objects that are gone', async () => {
    const activities = createActivities({ sql: db.sql, temporal: env.client, taskQueue: TASK_QUEUE, mailer });
    // The failures are expected: keep the environment's "Activity failed" warnings out of the report.
    const activity = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR', () => {}) });
    const cases: [string, () => Promise<unknown>][] = [
      [PERMANENT_FAILURES.paymentSessionNotFound, () => activities.expirePaymentSession('ps_missing')],
      [PERMANENT_FAILURES.subscriptionNotFound, () => activities.readSubscriptionStatus({ subscriptionId: 'sub_missing' })],
      [PERMANENT_FAILURES.subscriptionNotFound, () => activities.cancelSubscriptionOnChain({ subscriptionId: 'sub_missing' })],
      [
        PERMANENT_FAILURES.relaySubmissionNotFound,
        () => activities.submitRelaySubmission({ submissionId: 'rls_missing', livemode: false }),
      ],
      [
        PERMANENT_FAILURES.relaySubmissionNotFound,
        () => activities.awaitRelayConfirmation({ submissionId: 'rls_missing', livemode: false }),
      ],
      [
        PERMANENT_FAILURES.invalidAddress,
        () =>
          activities.chargeOnChain({
            livemode: false,
            onChainId: 'not-an-id',
            periodIndex: 0,
            amount: '1',
            periodStart: new Date().toISOString(),
          }),
      ],
    ];
    for (const [type, call] of cases) {
      const failure = await failureOf(() => activity.run(call));
      expect(failure.type).toBe(type);
      expect(failure.nonRetryable).toBe(true);
    }
  });

  it('a payment session workflow whose session is gone ends (not_found) instead of waiting forever', async () => {
    const outcome = await run<string>('paymentSessionWorkflow', 'ps_gone', [
      { sessionId: 'ps_gone', expiresAt: new Date(Date.now() - 1000).toISOString() },
    ]);
    expect(outcome).toBe('not_found');
  });

  it('a relay submission workflow whose submission is gone ends failed', async () => {
    const outcome = await run<{ status: string }>('relaySubmissionWorkflow', 'relay_gone', [{ submissionId: 'rls_gone', livemode: false }]);
    expect(outcome).toEqual({ status: 'failed' });
  });

  it('the on-chain cancel of a subscription that does not exist ends refused_on_chain', async () => {
    const outcome = await run<string>('subscriptionOnChainCancelWorkflow', 'sub_gone_onchain_cancel', [{ subscriptionId: 'sub_gone' }]);
    expect(outcome).toBe('refused_on_chain');
  });

  it('a webhook delivery of an event that does not exist ends cancelled', async () => {
    const merchant = await createMerchant(db.sql, { name: 'Hooks', email: 'hooks@example.com' });
    const [endpoint] = await db.sql<{ id: string }[]>`
      insert into webhook_endpoints (id, merchant_id, livemode, url, events, status, secret_ciphertext, secret_prefix)
      values ('we_gone_event', ${merchant.id}, false, 'https://hooks.example.com/in', ${['*']}, 'active', ${Buffer.alloc(1)}, 'whsec_000000')
      returning id`;
    const outcome = await run<string>('webhookDeliveryWorkflow', 'whd_evt_gone_we_gone_event', [
      { eventId: 'evt_gone', endpointId: endpoint!.id, sequence: 0 },
    ]);
    expect(outcome).toBe('cancelled');
  });

  it('an email whose recipient the SMTP server refuses for good is not retried: the delivery ends and the error is recorded', async () => {
    const merchant = await createMerchant(db.sql, { name: 'Mail', email: 'mail@example.com' });
    const emailId = await db.sql.begin((tx) =>
      queueEmail(tx, { merchantId: merchant.id, to: 'nobody@example.invalid', subject: 'Invoice', text: 'Pay it', kind: 'invoice' }),
    );
    const sent = await run<boolean>('deliverEmailWorkflow', emailId, [{ emailId }]);
    expect(sent).toBe(false);
    const [row] = await db.sql<{ attempts: number; lastError: string; sentAt: Date | null }[]>`
      select attempts, last_error as "lastError", sent_at as "sentAt" from outbound_emails where id = ${emailId}`;
    expect(row).toMatchObject({ attempts: 1, sentAt: null });
    expect(row!.lastError).toContain('550');
  });
});
