// The customer's replacement enrolment, seen by the indexer (src/subscriptions/chain-events.ts): for an upgrade above
// the cap (signed by the subscribing wallet) or a move to another wallet (signed by the wallet the customer named when
// starting it). Recognised as the replacement of one subscription's enrolment, applied, and the old enrolment
// cancelled on chain (docs/decisions.md "Upgrades above the cap" and "Re-authorising from another wallet").
//
// Bound by what only the expected signer can produce and the server chose: the enrolment's subscriber (the contract
// checked its signature, so a stranger's enrolment names the stranger), the amount asked for, and its firstPeriodStart,
// the calendar start of the period the server bound when it relayed the signature. The subscription's workflow reads
// the on-chain id (and the subscriber) per charge from Postgres, so moving them changes none of its commands.
import type { Client } from '@temporalio/client';
import type { Sql } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import { findPlanById } from '../subscription-plans/repo.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import { renderSubscription } from '../subscriptions/api-shape.js';
import type { RecordEvent } from '../events/commit.js';
import type { Db } from '../db/client.js';
import { findCustomer, moveCustomerWallet } from '../customers/repo.js';
import { renderCustomer } from '../customers/service.js';
import type { SubscriptionCreatedLog } from '../subscriptions/chain-events.js';
import { chargeWindowSeconds, onChainPeriodSecondsV2 } from '../subscriptions/periods.js';
import { businessNow } from '../test-clocks/business-time.js';
import { startWorkflowOnce } from '../temporal/start-once.js';
import { obsoleteEnrolmentCancelWorkflow, obsoleteEnrolmentCancelWorkflowId } from '../../workflows/subscription-reauthorisation.js';
import type { EnrolmentToCancel } from '../../activities/subscription-reauthorisations.js';
import * as repo from './repo.js';
import * as reauthorisations from './reauthorisation-repo.js';
import { planSetting, recordPlanChangeEvent } from './service.js';

export type ReauthorisationDeps = {
  sql: Sql;
  events: EventDispatcher;
  temporal: Client;
  taskQueue: string;
  log?: { warn: (details: object, message: string) => void };
};

export type ReplacementOutcome =
  /** The subscription now charges through the new enrolment; the old one is being cancelled. */
  | { outcome: 'replaced'; subscriptionId: string }
  /**
   * Bound, but the subscription could not take it (ended, or a period before it unsettled), or its change was
   * withdrawn after the customer signed (`change_cancelled`): the new enrolment is cancelled on chain.
   */
  | { outcome: 'refused'; subscriptionId: string; reason: string };

/** Whether a subscription can move to an enrolment starting at `periodIndex`: every earlier period settled, none later charged. */
function refusal(sub: subscriptionRepo.SubscriptionRow, periodIndex: number): string | null {
  if (sub.status === 'trialing') return sub.currentPeriodIndex === null && periodIndex === 0 ? null : 'period_mismatch';
  if (sub.status === 'active' || sub.status === 'paused') {
    return sub.currentPeriodIndex === periodIndex - 1 ? null : 'period_mismatch';
  }
  return `subscription_${sub.status}`;
}

/**
 * The replacement this enrolment is, applied (idempotent: a second sight of the log finds it applied and
 * answers the same); undefined when it is nobody's replacement (the caller records it as any enrolment).
 */
export async function applyReplacementEnrolment(
  deps: ReauthorisationDeps,
  log: SubscriptionCreatedLog,
): Promise<ReplacementOutcome | undefined> {
  const pending = await reauthorisations.findPendingReauthorisationFor(deps.sql, {
    livemode: log.livemode,
    chainId: String(log.chainId),
    subscriber: log.args.subscriber,
    amount: log.args.amount.toString(),
    firstPeriodStart: new Date(Number(log.args.firstPeriodStart) * 1000),
  });
  if (!pending || pending.periodIndex === null) {
    // A log seen again after its replacement applied: the same answer, nothing more.
    const applied = await reauthorisations.findAppliedReauthorisationByNewOnChainId(deps.sql, {
      livemode: log.livemode,
      chainId: String(log.chainId),
      onChainId: log.args.id.toString(),
    });
    if (applied) return { outcome: 'replaced', subscriptionId: applied.subscriptionId };
    return withdrawnReplacement(deps, log);
  }
  // An upgrade's enrolment is for the new plan; a wallet change's for the plan the subscription is on.
  const planId =
    pending.kind === 'plan_change'
      ? (await repo.findPlanChange(deps.sql, pending.planChangeId!))!.toPlanId
      : (await subscriptionRepo.findSubscriptionById(deps.sql, pending.subscriptionId))!.planId;
  const plan = await findPlanById(deps.sql, planId);
  // The rest of the terms must be the ones offered: the plan's v2 period and window, the periods left of the term.
  if (
    !plan ||
    log.args.period !== BigInt(onChainPeriodSecondsV2(plan.interval, plan.intervalCount)) ||
    log.chargeWindow !== BigInt(chargeWindowSeconds(plan.interval, plan.intervalCount))
  ) {
    return undefined;
  }
  const newEnrolment = {
    planChangeId: pending.id,
    livemode: log.livemode,
    chainId: String(log.chainId),
    contractAddress: log.address,
    onChainId: log.args.id.toString(),
  };

  const result = await commitWithEvents(deps.sql, deps.events, async (tx, record) => {
    // The subscription first, as the api's plan change locks it before the change rows.
    const sub = (await subscriptionRepo.findSubscriptionById(tx, pending.subscriptionId, { forUpdate: true }))!;
    const r = (await reauthorisations.findReauthorisation(tx, pending.id, { forUpdate: true }))!;
    if (r.status !== 'pending' || r.periodIndex === null) return undefined;
    const periodIndex = r.periodIndex;
    const expectedPeriods = sub.periods === 0 ? 0 : sub.periods - periodIndex;
    if (log.args.periods !== expectedPeriods) return undefined;
    // A wallet change keeps the cap it was started with: an upgrade applied meanwhile moved it, so sign again.
    const refused =
      r.kind === 'wallet_change' ? ((await walletChangeRefusal(tx, sub, r)) ?? refusal(sub, periodIndex)) : refusal(sub, periodIndex);
    if (refused) {
      // The link stays usable: the customer may sign again for a later period.
      await reauthorisations.unbindReauthorisation(tx, r.id);
      return { outcome: 'refused' as const, subscriptionId: sub.id, reason: refused, cancel: { ...newEnrolment, replaced: false } };
    }
    const at = await businessNow(tx, sub);
    const replaced = { onChainId: sub.onChainId, contractAddress: sub.contractAddress };
    const cancelReplaced = { ...newEnrolment, onChainId: replaced.onChainId, contractAddress: replaced.contractAddress, replaced: true };
    if (r.kind === 'wallet_change') {
      await applyWalletChange(tx, record, sub, r, { ...newEnrolment, log, periodIndex, at });
      return { outcome: 'replaced' as const, subscriptionId: sub.id, cancel: cancelReplaced };
    }
    const change = (await repo.findPlanChange(tx, r.planChangeId!))!;
    await reauthorisations.replaceEnrolment(tx, sub.id, {
      onChainId: newEnrolment.onChainId,
      contractAddress: log.address,
      amount: log.args.amount.toString(),
      periodSeconds: log.args.period.toString(),
      periodOffset: periodIndex,
      firstPeriodStart: r.firstPeriodStart!,
    });
    await repo.setSubscriptionPlan(tx, sub.id, planSetting(sub, change.toPlanId, change.toAmount));
    const applied = (await repo.applyWaitingPlanChange(tx, change.id, { periodIndex, effectiveAt: r.firstPeriodStart!, at }))!;
    await reauthorisations.markReauthorisationApplied(tx, r.id, {
      newOnChainId: newEnrolment.onChainId,
      replacedOnChainId: replaced.onChainId,
      replacedContractAddress: replaced.contractAddress,
      at,
    });
    await recordPlanChangeEvent(tx, record, sub.id, applied, {
      planId: sub.planId,
      planAmount: sub.priceAmount ?? sub.amount,
      amount: sub.amount,
      pendingPlanChange: { id: change.id, status: change.status },
    });
    return { outcome: 'replaced' as const, subscriptionId: sub.id, cancel: cancelReplaced };
  });
  if (!result) return undefined;
  if (result.outcome === 'refused') {
    deps.log?.warn(
      { subscriptionId: result.subscriptionId, reason: result.reason, onChainId: newEnrolment.onChainId },
      'replacement enrolment refused',
    );
  }
  await startObsoleteCancel(deps, result.cancel);
  return result.outcome === 'replaced'
    ? { outcome: 'replaced', subscriptionId: result.subscriptionId }
    : { outcome: 'refused', subscriptionId: result.subscriptionId, reason: result.reason };
}

/**
 * Why a wallet change cannot apply beside other changes: an upgrade applied meanwhile moved the cap it was started
 * with (`amount_changed`: sign again), or an upgrade's enrolment signed by the current wallet is on its way
 * (`plan_change_waiting`: applying the move would leave that enrolment bound to nobody).
 */
async function walletChangeRefusal(
  tx: Db,
  sub: subscriptionRepo.SubscriptionRow,
  r: reauthorisations.ReauthorisationRow,
): Promise<string | null> {
  if (r.amount !== sub.amount) return 'amount_changed';
  return (await reauthorisations.hasBoundPlanChange(tx, sub.id)) ? 'plan_change_waiting' : null;
}

/**
 * The subscription charges the new wallet's enrolment from period N, under the same cap and plan: the subscriber
 * moves to the new wallet (so renewal and allowance notices, the indexer's matching and the portal's sign-in follow
 * it), and the customer's wallet with it when no other customer of the merchant holds that wallet.
 */
async function applyWalletChange(
  tx: Db,
  record: RecordEvent,
  sub: subscriptionRepo.SubscriptionRow,
  r: reauthorisations.ReauthorisationRow,
  e: { onChainId: string; log: SubscriptionCreatedLog; periodIndex: number; at: Date },
): Promise<void> {
  const previous = renderSubscription(sub);
  await reauthorisations.replaceEnrolment(tx, sub.id, {
    onChainId: e.onChainId,
    contractAddress: e.log.address,
    amount: e.log.args.amount.toString(),
    periodSeconds: e.log.args.period.toString(),
    periodOffset: e.periodIndex,
    firstPeriodStart: r.firstPeriodStart!,
    subscriberAddress: r.newSubscriberAddress!,
  });
  await reauthorisations.markReauthorisationApplied(tx, r.id, {
    newOnChainId: e.onChainId,
    replacedOnChainId: sub.onChainId,
    replacedContractAddress: sub.contractAddress,
    previousSubscriberAddress: sub.subscriberAddress,
    at: e.at,
  });
  const updated = renderSubscription((await subscriptionRepo.findSubscriptionById(tx, sub.id))!);
  await record({
    merchantId: sub.merchantId,
    livemode: sub.livemode,
    type: 'subscription.updated',
    data: {
      object: updated,
      walletChange: { id: r.id, status: 'applied', periodIndex: e.periodIndex, effectiveAt: r.firstPeriodStart!.toISOString() },
      previousAttributes: { customer: previous.customer },
    },
  });
  if (await moveCustomerWallet(tx, sub.customerId, { from: sub.subscriberAddress, to: r.newSubscriberAddress! })) {
    const customer = (await findCustomer(tx, { merchantId: sub.merchantId, livemode: sub.livemode }, sub.customerId))!;
    await record({
      merchantId: sub.merchantId,
      livemode: sub.livemode,
      type: 'customer.updated',
      data: { object: renderCustomer(customer), previousAttributes: { walletAddress: sub.subscriberAddress } },
    });
  }
}

/**
 * An enrolment signed and relayed for a change withdrawn before it was indexed (the merchant cancelled the upgrade,
 * or the customer started another wallet change): the row still holds what it was bound to, and the enrolment must
 * not stay live bound to nothing, so the operator cancels it. The contract lets only the signer cancel an unused
 * enrolment nonce, so the created enrolment is what is cancelled.
 */
async function withdrawnReplacement(deps: ReauthorisationDeps, log: SubscriptionCreatedLog): Promise<ReplacementOutcome | undefined> {
  const withdrawn = await reauthorisations.findWithdrawnReauthorisationFor(deps.sql, {
    livemode: log.livemode,
    chainId: String(log.chainId),
    subscriber: log.args.subscriber,
    amount: log.args.amount.toString(),
    firstPeriodStart: new Date(Number(log.args.firstPeriodStart) * 1000),
  });
  if (!withdrawn) return undefined;
  deps.log?.warn({ subscriptionId: withdrawn.subscriptionId, onChainId: log.args.id.toString() }, 'withdrawn replacement enrolment');
  await startObsoleteCancel(deps, {
    planChangeId: withdrawn.id,
    livemode: log.livemode,
    chainId: String(log.chainId),
    contractAddress: log.address,
    onChainId: log.args.id.toString(),
    replaced: false,
  });
  return { outcome: 'refused', subscriptionId: withdrawn.subscriptionId, reason: 'change_cancelled' };
}

/** Nothing may charge the old authorisation again (or keep an unused new one): the operator cancels it. */
async function startObsoleteCancel(deps: ReauthorisationDeps, enrolment: EnrolmentToCancel): Promise<void> {
  await startWorkflowOnce(deps.temporal, obsoleteEnrolmentCancelWorkflow, {
    workflowId: obsoleteEnrolmentCancelWorkflowId(enrolment.planChangeId, enrolment.onChainId),
    taskQueue: deps.taskQueue,
    args: [enrolment],
  });
}
