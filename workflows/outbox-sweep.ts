// outboxSweepWorkflow: run by a Temporal Schedule every minute. It starts the
// dispatch of any event, and the delivery of any email, whose start the api
// missed (it died after commit).
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { DATABASE_ACTIVITY } from './options.js';

const { startPendingEventDispatches, startPendingEmailDeliveries } = proxyActivities<Activities>(DATABASE_ACTIVITY);

export const OUTBOX_SWEEP_BATCH = 500;

/** Returns how many dispatches it started. */
export async function outboxSweepWorkflow(input: { olderThanSeconds?: number } = {}): Promise<number> {
  let total = 0;
  for (;;) {
    const started = await startPendingEventDispatches({
      olderThanSeconds: input.olderThanSeconds ?? 10,
      limit: OUTBOX_SWEEP_BATCH,
    });
    total += started;
    if (started < OUTBOX_SWEEP_BATCH) break;
  }
  // Queued emails whose delivery the api never started.
  for (;;) {
    const started = await startPendingEmailDeliveries({ olderThanSeconds: input.olderThanSeconds ?? 10, limit: OUTBOX_SWEEP_BATCH });
    total += started;
    if (started < OUTBOX_SWEEP_BATCH) return total;
  }
}
