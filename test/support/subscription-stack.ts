// What the time-skipping subscription tests share: a database, the time-skipping
// server, a private anvil with the contracts, a real SMTP sink, one merchant with
// a payout address and one monthly plan, and a worker whose queued emails go out
// at once through the sink (instead of a delivery workflow per email).
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { createEmailActivities } from '../../activities/email.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import type { EmailDispatcher } from '../../src/email/service.js';
import type { EventDispatcher } from '../../src/events/dispatch.js';
import { addMerchantChainAddress } from '../../src/merchants/repo.js';
import { createPlanService } from '../../src/subscription-plans/service.js';
import type { SubscriptionChainEventDeps } from '../../src/subscriptions/chain-events.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { seedMerchant, type SeededMerchant } from './app.js';
import { startTestChain, type TestChain } from './subscriptions.js';
import { workflowBundle } from './temporal.js';

/** Events stay in the outbox: these tests read them from the table. */
export const outboxOnly: EventDispatcher = { dispatch: async () => {} };

/** Links in emails point here. */
export const PUBLIC_BASE_URL = 'https://pay.example.test';

export type SubscriptionStack = {
  db: TestDatabase;
  env: TestWorkflowEnvironment;
  chain: TestChain;
  sink: SmtpSink;
  mailer: Mailer;
  merchant: SeededMerchant;
  /** What the indexer hooks need, on `taskQueue`. */
  chainEventDeps: (taskQueue: string) => SubscriptionChainEventDeps;
  /** Sends each queued email at once through the sink. */
  sendingEmails: (taskQueue: string) => EmailDispatcher;
  /** The product activities and workflows on `taskQueue`, emails sent at once. */
  newWorker: (taskQueue: string) => Promise<Worker>;
  stop: () => Promise<void>;
};

export async function startSubscriptionStack(input: {
  merchantName: string;
  plan: { name: string; amount: bigint };
}): Promise<SubscriptionStack> {
  const db = await createTestDatabase();
  const [env, chain, bundle, sink] = await Promise.all([
    TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
    }),
    startTestChain(db.sql),
    workflowBundle(),
    startSmtpSink(),
  ]);
  const mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  const merchant = await seedMerchant(db.sql, input.merchantName);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  await createPlanService({ sql: db.sql, events: outboxOnly }).create(
    { merchantId: merchant.merchantId, livemode: false },
    {
      name: input.plan.name,
      amount: input.plan.amount.toString(),
      currency: 'USDC',
      interval: 'monthly',
      intervalCount: 1,
      trialPeriodDays: 0,
    },
  );

  const sendingEmails = (taskQueue: string): EmailDispatcher => {
    const email = createEmailActivities({ sql: db.sql, temporal: env.client, taskQueue, mailer });
    return {
      dispatch: async (_written, ids) => {
        for (const id of ids) await email.sendQueuedEmail(id);
      },
    };
  };

  return {
    db,
    env,
    chain,
    sink,
    mailer,
    merchant,
    chainEventDeps: (taskQueue) => ({
      sql: db.sql,
      temporal: env.client,
      taskQueue,
      events: outboxOnly,
      modes: { test: chain.mode },
    }),
    sendingEmails,
    newWorker: (taskQueue) =>
      Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        workflowBundle: bundle,
        activities: createActivities({
          sql: db.sql,
          temporal: env.client,
          taskQueue,
          events: outboxOnly,
          emails: sendingEmails(taskQueue),
          subscriptionChain: chain.subscriptionChain,
          publicBaseUrl: PUBLIC_BASE_URL,
        }),
        shutdownGraceTime: '200ms',
        shutdownForceTime: '1s',
      }),
    stop: async () => {
      await env.teardown();
      await chain.stop();
      mailer.close();
      await sink.stop();
      await db.drop();
    },
  };
}

/** Polls `read` every 100 ms until `done` holds (up to 60 s of wall time). */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
