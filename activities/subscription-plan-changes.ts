// The subscription workflow's step at a period's start that applies a plan change scheduled for it
// (src/subscription-plan-changes/apply.ts), before the period is charged.
import type { Sql } from '../src/db/client.js';
import type { EventDispatcher } from '../src/events/dispatch.js';
import { applyDuePlanChange } from '../src/subscription-plan-changes/apply.js';

export function createSubscriptionPlanChangeActivities({ sql, events }: { sql: Sql; events: EventDispatcher }) {
  return {
    /**
     * `nowMs`: the workflow's time (its test clock's on a clock), recorded as when the change applied.
     * Also answers the grace the period's charge waits for late usage (a metered plan's, else 0; issue 41).
     */
    async applyDuePlanChange(input: {
      subscriptionId: string;
      periodIndex: number;
      nowMs: number;
    }): Promise<{ applied: boolean; usageGraceSeconds: number }> {
      return applyDuePlanChange(sql, events, {
        subscriptionId: input.subscriptionId,
        periodIndex: input.periodIndex,
        at: new Date(input.nowMs),
      });
    },
  };
}
