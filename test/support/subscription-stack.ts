// What the time-skipping subscription tests share: a database, the time-skipping
// server, a private anvil with the contracts, a real SMTP sink, one merchant with
// a payout address and one monthly plan, and a worker whose queued emails go out
// at once through the sink (instead of a delivery workflow per email). With
// `secondChain`, a second anvil of the mode (chain id 31338) beside the first,
// and the product's chain port over both.
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
import { createViemSubscriptionChain, type SubscriptionChain } from '../../src/subscriptions/chain.js';
import { SECOND_CHAIN_ID } from './chain.js';
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
  /**
   * With `secondChain`: the mode's second chain, and the product's port over both chains (each its own
   * client, operator sender and batcher), which the stack's workers charge with instead of `chain`'s.
   */
  second?: { chain: TestChain; subscriptionChain: SubscriptionChain };
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
  secondChain?: boolean;
}): Promise<SubscriptionStack> {
  const db = await createTestDatabase();
  const [env, chain, bundle, sink, secondChain] = await Promise.all([
    TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
    }),
    startTestChain(db.sql),
    workflowBundle(),
    startSmtpSink(),
    input.secondChain ? startTestChain(db.sql, { chainId: SECOND_CHAIN_ID }) : undefined,
  ]);
  const portMode = (c: TestChain) => ({
    rpcUrl: c.anvil.rpcUrl,
    operatorKey: DEV_ACCOUNTS.operator.privateKey,
    subscriptionManager: c.deployed.subscriptionManager,
    fromBlock: 0n,
    pollingIntervalMs: 50,
  });
  const second = secondChain
    ? {
        chain: secondChain,
        subscriptionChain: await createViemSubscriptionChain({ test: [portMode(chain), portMode(secondChain)] }, { sql: db.sql }),
      }
    : undefined;
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
    ...(second ? { second } : {}),
    sink,
    mailer,
    merchant,
    chainEventDeps: (taskQueue) => ({
      sql: db.sql,
      temporal: env.client,
      taskQueue,
      events: outboxOnly,
      modes: { test: second ? [chain.mode, second.chain.mode] : chain.mode },
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
          subscriptionChain: second?.subscriptionChain ?? chain.subscriptionChain,
          publicBaseUrl: PUBLIC_BASE_URL,
        }),
        shutdownGraceTime: '200ms',
        shutdownForceTime: '1s',
      }),
    stop: async () => {
      await env.teardown();
      await chain.stop();
      await second?.chain.stop();
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
