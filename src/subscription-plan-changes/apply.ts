// A scheduled plan change (a downgrade) takes effect at its period's start: the subscription workflow
// calls this before charging that period (activities/subscription-plan-changes.ts), so the period is
// charged at the new amount. Idempotent: the change turns applied once; a retry finds nothing due.
import type { Sql } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import * as repo from './repo.js';
import { planSetting, recordPlanChangeEvent } from './service.js';

export async function applyDuePlanChange(
  sql: Sql,
  events: EventDispatcher,
  input: { subscriptionId: string; periodIndex: number; at: Date },
): Promise<{ applied: boolean }> {
  // The common case (nothing scheduled) is one plain read: no transaction, no lock.
  if (!(await repo.hasDuePlanChange(sql, input.subscriptionId, input.periodIndex))) return { applied: false };
  return commitWithEvents(sql, events, async (tx, record) => {
    // The subscription first, as the api's plan change locks it before the change rows.
    const sub = await subscriptionRepo.findSubscriptionById(tx, input.subscriptionId, { forUpdate: true });
    if (!sub || subscriptionRepo.TERMINAL_STATUSES.includes(sub.status)) return { applied: false };
    const change = await repo.applyDuePlanChange(tx, sub.id, input.periodIndex, input.at);
    if (!change) return { applied: false };
    await repo.setSubscriptionPlan(tx, sub.id, planSetting(sub, change.toPlanId, change.toAmount));
    await recordPlanChangeEvent(tx, record, sub.id, change, {
      planId: sub.planId,
      planAmount: sub.priceAmount ?? sub.amount,
      pendingPlanChange: sub.pendingPlanChange ? { id: sub.pendingPlanChange.id, status: sub.pendingPlanChange.status } : null,
    });
    return { applied: true };
  });
}
