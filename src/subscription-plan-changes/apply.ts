// A scheduled plan change (a downgrade) takes effect at its period's start: the subscription workflow
// calls this before charging that period (activities/subscription-plan-changes.ts), so the period is
// charged at the new amount. Idempotent: the change turns applied once; a retry finds nothing due.
import type { Sql } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import * as repo from './repo.js';
import { planSetting, recordPlanChangeEvent } from './service.js';

/**
 * `usageGraceSeconds`: how long the period's charge waits after its start for late usage events, the plan's
 * grace when it is metered and the period closes usage (index >= 1; src/billing-meters/period-close.ts), else 0.
 * Read in the same statement as the due change: a fixed plan's period costs no extra round trip (issue 41).
 */
export async function applyDuePlanChange(
  sql: Sql,
  events: EventDispatcher,
  input: { subscriptionId: string; periodIndex: number; at: Date },
): Promise<{ applied: boolean; usageGraceSeconds: number }> {
  // The common case (nothing scheduled) is one plain read: no transaction, no lock.
  const due = await repo.duePlanChangeAndUsageGrace(sql, input.subscriptionId, input.periodIndex);
  const usageGraceSeconds = input.periodIndex >= 1 ? due.usageGraceSeconds : 0;
  if (!due.changeDue) return { applied: false, usageGraceSeconds };
  const applied = await commitWithEvents(sql, events, async (tx, record) => {
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
  return { ...applied, usageGraceSeconds };
}
