// outboxSweepWorkflow: run by a Temporal Schedule every minute. It wakes the
// event dispatcher when an event has waited too long, and starts the delivery
// of any email and any queued workflow start (src/temporal/start-outbox.ts)
// that the api missed (it died, or Temporal was unreachable, after commit).
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { DATABASE_ACTIVITY } from './options.js';

const { wakeEventDispatcherIfBehind, startPendingEmailDeliveries, startPendingWorkflowStarts } =
  proxyActivities<Activities>(DATABASE_ACTIVITY);

export const OUTBOX_SWEEP_BATCH = 500;

/** Returns how many starts it performed (a wake-up of the event dispatcher counts as one). */
export async function outboxSweepWorkflow(input: { olderThanSeconds?: number } = {}): Promise<number> {
  let total = 0;
  // Events wait for the dispatcher, which the api wakes after each commit; wake it for any it missed.
  total += await wakeEventDispatcherIfBehind({ olderThanSeconds: input.olderThanSeconds ?? 10 });
  // Queued emails whose delivery the api never started.
  for (;;) {
    const started = await startPendingEmailDeliveries({ olderThanSeconds: input.olderThanSeconds ?? 10, limit: OUTBOX_SWEEP_BATCH });
    total += started;
    if (started < OUTBOX_SWEEP_BATCH) break;
  }
  // Queued workflow starts and signal-with-starts (creates, invoice sends and voids).
  for (;;) {
    const { performed, found } = await startPendingWorkflowStarts({
      olderThanSeconds: input.olderThanSeconds ?? 10,
      limit: OUTBOX_SWEEP_BATCH,
    });
    total += performed;
    // A full batch that made no progress (Temporal refusing every start) waits for the next sweep.
    if (found < OUTBOX_SWEEP_BATCH || performed === 0) return total;
  }
}
