// The customer's new enrolment for an upgrade above the cap, seen by the indexer (src/subscriptions/chain-events.ts):
// recognised as the replacement of one subscription's enrolment, applied, and the old enrolment cancelled on chain
// (docs/decisions.md "Upgrades above the cap: the customer signs a replacement enrolment").
//
// Bound by what only the subscriber can produce and the server chose: the enrolment's subscriber (the contract checked
// its signature, so a stranger's enrolment names the stranger), the amount asked for, and its firstPeriodStart, the
// calendar start of the period the server bound when it relayed the signature. The subscription's workflow reads the
// on-chain id per charge from Postgres, so moving it changes none of the workflow's commands.
import type { Client } from '@temporalio/client';
import type { Sql } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import { findPlanById } from '../subscription-plans/repo.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
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
  /** Bound, but the subscription could not take it (ended, or a period before it unsettled): the new one is cancelled. */
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
    return applied ? { outcome: 'replaced', subscriptionId: applied.subscriptionId } : undefined;
  }
  const change = (await repo.findPlanChange(deps.sql, pending.planChangeId))!;
  const plan = await findPlanById(deps.sql, change.toPlanId);
  // The rest of the terms must be the ones offered: the plan's v2 period and window, the periods left of the term.
  if (
    !plan ||
    log.args.period !== BigInt(onChainPeriodSecondsV2(plan.interval, plan.intervalCount)) ||
    log.chargeWindow !== BigInt(chargeWindowSeconds(plan.interval, plan.intervalCount))
  ) {
    return undefined;
  }
  const newEnrolment = {
    planChangeId: pending.planChangeId,
    livemode: log.livemode,
    chainId: String(log.chainId),
    contractAddress: log.address,
    onChainId: log.args.id.toString(),
  };

  const result = await commitWithEvents(deps.sql, deps.events, async (tx, record) => {
    // The subscription first, as the api's plan change locks it before the change rows.
    const sub = (await subscriptionRepo.findSubscriptionById(tx, pending.subscriptionId, { forUpdate: true }))!;
    const r = (await reauthorisations.findReauthorisation(tx, pending.planChangeId, { forUpdate: true }))!;
    if (r.status !== 'pending' || r.periodIndex === null) return undefined;
    const periodIndex = r.periodIndex;
    const expectedPeriods = sub.periods === 0 ? 0 : sub.periods - periodIndex;
    if (log.args.periods !== expectedPeriods) return undefined;
    const refused = refusal(sub, periodIndex);
    if (refused) {
      // The link stays usable: the customer may sign again for a later period.
      await reauthorisations.unbindReauthorisation(tx, r.planChangeId);
      return { outcome: 'refused' as const, subscriptionId: sub.id, reason: refused, cancel: { ...newEnrolment, replaced: false } };
    }
    const at = await businessNow(tx, sub);
    const replaced = { onChainId: sub.onChainId, contractAddress: sub.contractAddress };
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
    await reauthorisations.markReauthorisationApplied(tx, r.planChangeId, {
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
    return {
      outcome: 'replaced' as const,
      subscriptionId: sub.id,
      cancel: { ...newEnrolment, onChainId: replaced.onChainId, contractAddress: replaced.contractAddress, replaced: true },
    };
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

/** Nothing may charge the old authorisation again (or keep an unused new one): the operator cancels it. */
async function startObsoleteCancel(deps: ReauthorisationDeps, enrolment: EnrolmentToCancel): Promise<void> {
  await startWorkflowOnce(deps.temporal, obsoleteEnrolmentCancelWorkflow, {
    workflowId: obsoleteEnrolmentCancelWorkflowId(enrolment.planChangeId, enrolment.onChainId),
    taskQueue: deps.taskQueue,
    args: [enrolment],
  });
}
