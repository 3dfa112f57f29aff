// What the time-skipping subscription tests share: a database, the time-skipping
// server, a private anvil with the contracts, a real SMTP sink, one merchant with
// a payout address and one monthly plan, and a worker whose queued emails go out
// at once through the sink (instead of a delivery workflow per email). With
// `secondChain`, a second anvil of the mode (chain id 31338) beside the first,
// and the product's chain port over both. Also the steps these tests repeat:
// more plans, an enrolment handed to the indexer entry point, the charges read.
import type { WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { PrivateKeyAccount } from 'viem/accounts';
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
import {
  onSubscriptionCreatedOnChain,
  type SubscriptionChainEventDeps,
  type SubscriptionCreatedLog,
} from '../../src/subscriptions/chain-events.js';
import { createViemSubscriptionChain, type SubscriptionChain } from '../../src/subscriptions/chain.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { SECOND_CHAIN_ID } from './chain.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { seedMerchant, type SeededMerchant } from './app.js';
import { alignClocks, newPayer, startTestChain, type TestChain } from './subscriptions.js';
import { workflowBundle } from './temporal.js';

/** Events stay in the outbox: these tests read them from the table. */
export const outboxOnly: EventDispatcher = { dispatch: async () => {} };

const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));

/** Links in emails point here. */
export const PUBLIC_BASE_URL = 'https://pay.example.test';

/** A charge row as the tests compare it: period index, amount (base units), status. */
export type ChargeRow = [periodIndex: number, amount: string, status: string];

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
  /** The id of the plan the stack was started with. */
  planId: string;
  /** Another monthly plan of the merchant's, in test mode (no trial); its id. */
  addPlan: (plan: { name: string; amount: bigint }) => Promise<string>;
  /** What the indexer hooks need, on `taskQueue`. */
  chainEventDeps: (taskQueue: string) => SubscriptionChainEventDeps;
  /** Sends each queued email at once through the sink. */
  sendingEmails: (taskQueue: string) => EmailDispatcher;
  /** The product activities and workflows on `taskQueue`, emails sent at once. */
  newWorker: (taskQueue: string) => Promise<Worker>;
  /**
   * A new wallet holding `funds` enrols for `amount` a month over `periods` (clocks aligned first) on the first
   * chain, and the indexer entry point creates the subscription (on `taskQueue`); anything else throws.
   */
  enrol: (
    taskQueue: string,
    input: { amount: bigint; periods: number; funds: bigint },
  ) => Promise<{ payer: PrivateKeyAccount; log: SubscriptionCreatedLog; subscriptionId: string; handle: WorkflowHandle }>;
  /** The subscription's charges, by period (and by creation within one). */
  charges: (subscriptionId: string) => Promise<ChargeRow[]>;
  /** Waits until the subscription's charges end with period `periodIndex`'s, succeeded. */
  periodCharged: (subscriptionId: string, periodIndex: number) => Promise<ChargeRow[]>;
  /** Waits until the first chain's enrolment `onChainId` is cancelled (by the operator); `what` names it in a timeout. */
  cancelledOnChain: (onChainId: bigint, what: string) => Promise<void>;
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
  const plans = createPlanService({ sql: db.sql, events: outboxOnly });
  const addPlan = async (plan: { name: string; amount: bigint }) =>
    (
      await plans.create(
        { merchantId: merchant.merchantId, livemode: false },
        { name: plan.name, amount: plan.amount.toString(), currency: 'USDC', interval: 'monthly', intervalCount: 1, trialPeriodDays: 0 },
      )
    ).id;
  const planId = await addPlan(input.plan);

  const sendingEmails = (taskQueue: string): EmailDispatcher => {
    const email = createEmailActivities({ sql: db.sql, temporal: env.client, taskQueue, mailer });
    return {
      dispatch: async (_written, ids) => {
        for (const id of ids) await email.sendQueuedEmail(id);
      },
    };
  };
  const chainEventDeps = (taskQueue: string): SubscriptionChainEventDeps => ({
    sql: db.sql,
    temporal: env.client,
    taskQueue,
    events: outboxOnly,
    modes: { test: second ? [chain.mode, second.chain.mode] : chain.mode },
  });
  const charges = (subscriptionId: string) =>
    db.sql<{ periodIndex: number; amount: string; status: string }[]>`
      select period_index as "periodIndex", amount::text as amount, status from subscription_charges
      where subscription_id = ${subscriptionId} order by period_index, created_at`.then((rows) =>
      rows.map((r): ChargeRow => [r.periodIndex, r.amount, r.status]),
    );

  return {
    db,
    env,
    chain,
    ...(second ? { second } : {}),
    sink,
    mailer,
    merchant,
    planId,
    addPlan,
    chainEventDeps,
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
    enrol: async (taskQueue, { amount, periods, funds }) => {
      await alignClocks(env, chain);
      const payer = newPayer();
      await chain.mint(payer.address, funds);
      const log = await chain.enrol({ payer, amount, period: MONTH_PERIOD, periods });
      const created = await onSubscriptionCreatedOnChain(chainEventDeps(taskQueue), log);
      if (created.outcome !== 'created') throw new Error(`enrolment not created: ${JSON.stringify(created)}`);
      return { payer, log, subscriptionId: created.subscriptionId, handle: env.client.workflow.getHandle(created.subscriptionId) };
    },
    charges,
    periodCharged: (subscriptionId, periodIndex) =>
      waitFor(
        () => charges(subscriptionId),
        (rows) => rows.length === periodIndex + 1 && rows[periodIndex]![2] === 'succeeded',
        `period ${periodIndex} charged`,
      ),
    cancelledOnChain: async (onChainId, what) => {
      await waitFor(
        () => chain.isCancelledOnChain(onChainId.toString()),
        (cancelled) => cancelled,
        what,
      );
    },
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
