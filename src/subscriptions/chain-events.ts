// Entry points the indexer calls when it sees the subscription contract's
// events (after its confirmations). Each is idempotent: a log seen twice (a
// restart, a re-scan) changes nothing the second time.
//
// How an enrolment finds its merchant and plan:
//  - the Terms' `merchant` is a payout address registered for one merchant and
//    mode in merchant_chain_addresses (addMerchantChainAddress), on the log's chain
//    (the account's payout address is on every chain; one set for a chain, on that chain);
//  - the contract, token and operator must be those of the mode's chain the log
//    came from (otherwise it is not a subscription this service can charge, and it
//    is ignored); the subscription is recorded on that chain and charged there;
//  - the plan is the merchant's plan (same mode, offered on the log's chain) whose amount equals the Terms'
//    amount and whose period equals the Terms' period (v1: onChainPeriodSeconds,
//    the shortest calendar gap; v2: onChainPeriodSecondsV2, the mean month), whose
//    trial the enrolment's trial matches (enrolment-match.ts: the trial is
//    firstPeriodStart - block time) and, on v2, whose chargeWindowSeconds equals
//    the signed window (read from the contract by the hook). The relay
//    may pass the plan id it enrolled for (`planId`), which must be one of those;
//    otherwise the oldest matching plan is used.
// A subscriber's v2 enrolment bound to one of their subscriptions' upgrades above the cap is not a new
// subscription: it replaces that subscription's enrolment (src/subscription-plan-changes/reauthorisation.ts).
// An ignored enrolment is logged with its reason (deps.log), as nobody else sees it.
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { Address, Hex } from 'viem';
import type { Sql } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import { newId } from '../ids.js';
import { upsertCustomer } from '../customers/repo.js';
import { findMerchantByChainAddress } from '../merchants/repo.js';
import {
  cancelSubscriptionSignal,
  subscriptionWorkflow,
  subscriptionWorkflowId,
  walletFundedSignal,
  type SubscriptionWorkflowInput,
} from '../../workflows/subscription.js';
import { signalIfRunning } from '../temporal/signals.js';
import { startOptionsFor } from '../temporal/workflow-tags.js';
import { trialMatchesPlan } from './enrolment-match.js';
import { chargeWindowSeconds, onChainPeriodSeconds, onChainPeriodSecondsV2 } from './periods.js';
import * as repo from './repo.js';
import { redeemEnrolmentPromotionCode } from '../discounts/enrolment.js';
import { renderSubscription } from './api-shape.js';
import { listOf, type OneOrMore } from './chain.js';
import { findClockOfWallet } from '../test-clocks/repo.js';
import { applyReplacementEnrolment } from '../subscription-plan-changes/reauthorisation.js';

/** What this service's side of the contract looks like in one mode. */
export type SubscriptionContractMode = {
  chainId: number;
  /** Every manager of the mode (v1 and v2): an enrolment on any of them is this service's. */
  subscriptionManagers: Address[];
  /**
   * The mode's SubscriptionManagerV2 (one of subscriptionManagers): its enrolments sign the mean-month
   * period and a charge window (periods.ts). Absent: every manager is matched as v1.
   */
  subscriptionManagerV2?: Address;
  token: Address;
  /** The operator address this service charges with. */
  operator: Address;
};

export type SubscriptionChainEventDeps = {
  sql: Sql;
  temporal: Client;
  taskQueue: string;
  events: EventDispatcher;
  /** Each mode's chains (one, or a list: a mode with several chains). */
  modes: { test?: OneOrMore<SubscriptionContractMode>; live?: OneOrMore<SubscriptionContractMode> };
  /** Workflow tuning (tests shorten these). */
  workflow?: Pick<SubscriptionWorkflowInput, 'retryIntervalHours' | 'periodsPerRun'>;
  /** The runs' workflow task timeout; SUBSCRIPTION_WORKFLOW_TASK_TIMEOUT unless a test that kills a worker shortens the wait. */
  workflowTaskTimeout?: string;
  /** Where an ignored enrolment is reported (the indexer's logger). */
  log?: { warn: (details: object, message: string) => void };
};

/**
 * The workflow task timeout of every subscription run: set at start, and kept by the server on
 * continue-as-new (test/workflows/subscription.test.ts checks a continued run). A charge's task waits for
 * its batch and block inside the task; on renewal day, with hundreds of tasks in flight, the server's 10 s
 * fired for about a fifth of the charges and each retry replayed the task (issue 42). A task that is really
 * stuck still times out.
 */
export const SUBSCRIPTION_WORKFLOW_TASK_TIMEOUT = '30s';

export type SubscriptionCreatedLog = {
  livemode: boolean;
  chainId: number;
  /** The contract that emitted the log. */
  address: Address;
  transactionHash: Hex | null;
  /** Timestamp (seconds) of the block that holds the log: the enrolment time. */
  blockTimestamp: bigint;
  args: {
    id: bigint;
    subscriber: Address;
    merchant: Address;
    token: Address;
    amount: bigint;
    period: bigint;
    periods: number;
    firstPeriodStart: bigint;
    operator: Address;
  };
  /** v2 only: the charge window the subscriber signed (read from the contract: the event does not carry it). */
  chargeWindow?: bigint;
  /** The plan the relay enrolled the customer for, when it knows. */
  planId?: string;
  /** The customer's email, when the hosted checkout collected one. */
  customerEmail?: string;
};

export type SubscriptionCreatedOutcome =
  | { outcome: 'created' | 'existing'; subscriptionId: string; workflowStarted: boolean }
  /** The customer's new enrolment for an upgrade above the cap: the subscription now charges through it. */
  | { outcome: 'replaced'; subscriptionId: string }
  | { outcome: 'ignored'; reason: IgnoredEnrolmentReason };

export type IgnoredEnrolmentReason =
  | 'unknown_contract'
  | 'foreign_operator'
  | 'unknown_token'
  | 'unknown_merchant'
  | 'no_matching_plan'
  | 'trial_mismatch'
  | 'charge_window_mismatch'
  /** A subscription's bound replacement that it could not take (ended, or a period before it unsettled): cancelled on chain. */
  | 'replacement_refused';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** This service's side of the contract on the chain `chainId` of a mode; undefined when the mode has no such chain. */
export function contractModeOf(
  modes: SubscriptionChainEventDeps['modes'],
  livemode: boolean,
  chainId: number,
): SubscriptionContractMode | undefined {
  return listOf(livemode ? modes.live : modes.test).find((mode) => mode.chainId === chainId);
}

export async function onSubscriptionCreatedOnChain(
  deps: SubscriptionChainEventDeps,
  log: SubscriptionCreatedLog,
): Promise<SubscriptionCreatedOutcome> {
  const outcome = await recordEnrolment(deps, log);
  if (outcome.outcome === 'ignored') {
    deps.log?.warn(
      {
        reason: outcome.reason,
        livemode: log.livemode,
        chainId: log.chainId,
        contract: log.address,
        onChainId: log.args.id.toString(),
        transactionHash: log.transactionHash,
        subscriber: log.args.subscriber,
        merchant: log.args.merchant,
        operator: log.args.operator,
        firstPeriodStart: log.args.firstPeriodStart.toString(),
        blockTimestamp: log.blockTimestamp.toString(),
        periods: log.args.periods,
        period: log.args.period.toString(),
        ...(log.chargeWindow !== undefined ? { chargeWindow: log.chargeWindow.toString() } : {}),
      },
      `enrolment ignored: ${outcome.reason}`,
    );
  }
  return outcome;
}

async function recordEnrolment(deps: SubscriptionChainEventDeps, log: SubscriptionCreatedLog): Promise<SubscriptionCreatedOutcome> {
  const mode = contractModeOf(deps.modes, log.livemode, log.chainId);
  if (!mode || !mode.subscriptionManagers.some((m) => same(m, log.address))) return { outcome: 'ignored', reason: 'unknown_contract' };
  if (!same(mode.operator, log.args.operator)) return { outcome: 'ignored', reason: 'foreign_operator' };
  if (!same(mode.token, log.args.token)) return { outcome: 'ignored', reason: 'unknown_token' };

  // Each manager signs its own period for a plan: v1 the shortest calendar gap, v2 the mean month.
  const v2 = mode.subscriptionManagerV2 !== undefined && same(mode.subscriptionManagerV2, log.address);

  // A subscriber's replacement of their own enrolment (an upgrade above the cap they authorised) is no new subscription.
  const replacement = v2 ? await applyReplacementEnrolment(deps, log) : undefined;
  if (replacement?.outcome === 'replaced') return replacement;
  if (replacement) return { outcome: 'ignored', reason: 'replacement_refused' };
  const periodOf = v2 ? onChainPeriodSecondsV2 : onChainPeriodSeconds;

  // An address that is the merchant's on this chain (the account's payout, or one set for this chain).
  const merchant = await findMerchantByChainAddress(deps.sql, log.livemode, log.args.merchant, log.chainId);
  if (!merchant) return { outcome: 'ignored', reason: 'unknown_merchant' };
  const candidates = (
    await repo.findPlansForTerms(deps.sql, {
      merchantId: merchant.merchantId,
      livemode: log.livemode,
      amount: log.args.amount.toString(),
      chainId: log.chainId,
    })
  ).filter((plan) => BigInt(periodOf(plan.interval, plan.intervalCount)) === log.args.period);
  const named = log.planId ? candidates.filter((p) => p.id === log.planId) : candidates;
  if (named.length === 0) return { outcome: 'ignored', reason: 'no_matching_plan' };
  // The contract makes firstPeriodStart >= the enrolment's block time.
  const trialSeconds = log.args.firstPeriodStart > log.blockTimestamp ? log.args.firstPeriodStart - log.blockTimestamp : 0n;
  const trialMatched = named.filter((p) => trialMatchesPlan(trialSeconds, p.trialPeriodDays));
  if (trialMatched.length === 0) return { outcome: 'ignored', reason: 'trial_mismatch' };
  // v2: the window must be the one the platform signs for the plan. A shorter one would make the
  // workflow's charges fail; a longer one would let arrears of that length be charged.
  const plan = v2
    ? trialMatched.find((p) => BigInt(chargeWindowSeconds(p.interval, p.intervalCount)) === log.chargeWindow)
    : trialMatched[0];
  if (!plan) return { outcome: 'ignored', reason: 'charge_window_mismatch' };

  const firstPeriodStart = new Date(Number(log.args.firstPeriodStart) * 1000);
  const trialing = log.args.firstPeriodStart > log.blockTimestamp;
  const status = trialing ? 'trialing' : 'active';

  const { subscriptionId, created, terminal } = await commitWithEvents(deps.sql, deps.events, async (tx, record) => {
    const customer = await upsertCustomer(tx, {
      id: newId('customer'),
      merchantId: merchant.merchantId,
      livemode: log.livemode,
      walletAddress: log.args.subscriber,
      email: log.customerEmail ?? null,
    });
    const inserted = await repo.insertSubscriptionIfAbsent(tx, {
      id: newId('subscription'),
      merchantId: merchant.merchantId,
      livemode: log.livemode,
      planId: plan.id,
      customerId: customer.id,
      status,
      chainId: String(log.chainId),
      contractAddress: log.address,
      onChainId: log.args.id.toString(),
      subscriberAddress: log.args.subscriber,
      tokenAddress: log.args.token,
      amount: log.args.amount.toString(),
      // A metered plan's enrolment authorises its cap: the period's fixed price is the plan's amount.
      ...(plan.usageCap !== null ? { priceAmount: plan.amount } : {}),
      periodSeconds: log.args.period.toString(),
      periods: log.args.periods,
      firstPeriodStart,
      trialEnd: trialing ? firstPeriodStart : null,
      nextChargeAt: firstPeriodStart,
      createdTxHash: log.transactionHash,
    });
    const row = (await repo.findSubscriptionById(tx, inserted.id))!;
    if (!inserted.created) return { subscriptionId: inserted.id, created: false, terminal: repo.TERMINAL_STATUSES.includes(row.status) };
    await record({
      merchantId: merchant.merchantId,
      livemode: log.livemode,
      type: 'subscription.created',
      data: { object: renderSubscription(row) },
    });
    // A promotion code given on the hosted enrolment page is redeemed now, before the first charge.
    const scope = { merchantId: merchant.merchantId, livemode: log.livemode };
    const redemption = await redeemEnrolmentPromotionCode(tx, record, scope, row);
    if (redemption && 'refused' in redemption) {
      deps.log?.warn({ subscriptionId: row.id, reason: redemption.refused }, 'enrolment promotion code not redeemed');
    }
    return { subscriptionId: inserted.id, created: true, terminal: false };
  });
  if (terminal) return { outcome: 'existing', subscriptionId, workflowStarted: false };

  // Started even for an existing row (the previous call may have died between commit and start);
  // the id reuse policy makes a second start a no-op.
  const input: SubscriptionWorkflowInput = {
    subscriptionId,
    merchantId: merchant.merchantId,
    livemode: log.livemode,
    planId: plan.id,
    interval: plan.interval,
    intervalCount: plan.intervalCount,
    periods: log.args.periods,
    firstPeriodStart: firstPeriodStart.toISOString(),
    status,
    ...deps.workflow,
  };
  // A test-mode wallet on a test clock: the subscription's timers follow the clock (issue #30).
  const testClockId = log.livemode ? undefined : await findClockOfWallet(deps.sql, merchant.merchantId, log.args.subscriber);
  if (testClockId) input.testClockId = testClockId;
  let workflowStarted = false;
  try {
    const tags = {
      merchantId: merchant.merchantId,
      livemode: log.livemode,
      object: 'subscription',
      objectId: subscriptionId,
      businessStatus: status,
      customerWallet: log.args.subscriber,
      chainId: log.chainId,
    };
    const { memo, ...searchAttributes } = await startOptionsFor(deps.temporal, tags);
    await deps.temporal.workflow.start(subscriptionWorkflow, {
      workflowId: subscriptionWorkflowId(subscriptionId),
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      workflowTaskTimeout: deps.workflowTaskTimeout ?? SUBSCRIPTION_WORKFLOW_TASK_TIMEOUT,
      // What an operator searches by (docs/operations.md) and the memo every business run has; the plan
      // is in the input and the API, and nothing reads it from the memo (issue 42).
      memo,
      ...searchAttributes,
    });
    workflowStarted = true;
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  return { outcome: created ? 'created' : 'existing', subscriptionId, workflowStarted };
}

export type SubscriptionCancelledLog = { livemode: boolean; chainId: number; address: Address; args: { id: bigint; by: Address } };

/** The customer (or anyone allowed) cancelled on-chain: the workflow records it and stops. */
export async function onSubscriptionCancelledOnChain(
  deps: SubscriptionChainEventDeps,
  log: SubscriptionCancelledLog,
): Promise<{ subscriptionId: string | null }> {
  const sub = await repo.findSubscriptionByOnChainId(deps.sql, {
    livemode: log.livemode,
    chainId: String(log.chainId),
    contractAddress: log.address,
    onChainId: log.args.id.toString(),
  });
  if (!sub) return { subscriptionId: null };
  const mode = contractModeOf(deps.modes, log.livemode, log.chainId);
  const by = same(log.args.by, sub.subscriberAddress) ? 'subscriber' : mode && same(log.args.by, mode.operator) ? 'operator' : 'merchant';
  await signalIfRunning(deps.temporal, subscriptionWorkflowId(sub.id), cancelSubscriptionSignal, { by, reason: 'Cancelled on-chain.' });
  return { subscriptionId: sub.id };
}

/**
 * Funds (a token transfer to the wallet, or a new allowance) reached a
 * subscriber: every at_risk subscription it pays retries its charge now
 * (on the chain the funds arrived on, when the caller names it).
 */
export async function onTransferToSubscriber(
  deps: SubscriptionChainEventDeps,
  transfer: { livemode: boolean; to: Address; chainId?: number },
): Promise<{ signalled: string[] }> {
  const ids = await repo.findOpenSubscriptionIdsBySubscriber(deps.sql, transfer.livemode, transfer.to, transfer.chainId);
  const signalled: string[] = [];
  for (const id of ids) {
    if (await signalIfRunning(deps.temporal, subscriptionWorkflowId(id), walletFundedSignal)) signalled.push(id);
  }
  return { signalled };
}

/** Alias: a top-up is a transfer to the subscriber. */
export const onTopUp = onTransferToSubscriber;
