// usageThresholdSweepWorkflow: run by a Temporal Schedule every 5 minutes (src/temporal/schedules.ts). It bills early
// the metered subscriptions whose usage not yet billed reached their plan's usageThreshold (issue 41, item 4;
// docs/metered-billing.md, "Usage threshold"): one sweep for all of them, no workflow or timer per subscription.
// The sweep's time is the workflow's (deterministic); the activity reads a test clock's own time for its wallets.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { DATABASE_ACTIVITY } from './options.js';

const { billUsageThresholds } = proxyActivities<Activities>(DATABASE_ACTIVITY);

export const USAGE_THRESHOLD_PAGE = 50;

/** Returns how many threshold invoices it opened. */
export async function usageThresholdSweepWorkflow(): Promise<number> {
  const nowMs = Date.now();
  let billed = 0;
  let afterId: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof billUsageThresholds>> = await billUsageThresholds({
      nowMs,
      afterId,
      limit: USAGE_THRESHOLD_PAGE,
    });
    billed += page.billed;
    afterId = page.nextAfterId;
  } while (afterId !== null);
  return billed;
}
