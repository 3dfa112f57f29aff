// webhookDeliveryWorkflow: one attempt sequence ("run") of one event to one
// endpoint, workflow id whd_<eventId>_<endpointId> (replay N adds _r<N>).
// Attempts follow RETRY_SCHEDULE_MS with +-10% jitter; 429/503 with
// Retry-After wait at least that long; 2xx ends it, 410 or a failed last
// attempt makes it permanently failed (which counts toward auto-disable). Each
// attempt first checks that the endpoint is still active, so disabling an
// endpoint stops its pending retries. Each attempt is a local activity, so a
// delivery that succeeds at once is one workflow task.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { sleep, workflowInfo } from '@temporalio/workflow';
import { PERMANENT_FAILURES, permanentFailureType } from '../src/temporal/failures.js';
import type { Activities } from '../activities/index.js';
import { deliveryRunId, type WebhookDeliveryInput } from '../src/webhooks/runs.js';
import { DATABASE_ACTIVITY, WEBHOOK_ATTEMPT_LOCAL_ACTIVITY } from './options.js';

const { finishWebhookRun, notifyWebhookEndpointDisabled } = proxyActivities<Activities>(DATABASE_ACTIVITY);
const { attemptWebhookDelivery } = proxyLocalActivities<Activities>(WEBHOOK_ATTEMPT_LOCAL_ACTIVITY);

/** Run id: whd_<eventId>_<endpointId>, with _r<N> for replay N (src/webhooks/runs.ts). */
export const webhookDeliveryWorkflowId = deliveryRunId;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Delay before each attempt: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h. Eight attempts over about 27.6 hours.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const RETRY_JITTER = 0.1;

/** Math.random in workflow code is seeded by Temporal: deterministic on replay. */
function jittered(delayMs: number): number {
  return Math.round(delayMs * (1 - RETRY_JITTER + 2 * RETRY_JITTER * Math.random()));
}

export type WebhookDeliveryResult = 'succeeded' | 'permanently_failed' | 'cancelled' | 'duplicate';

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const runId = workflowInfo().workflowId;
  const { eventId, endpointId, sequence } = input;

  for (let attempt = 1; attempt <= RETRY_SCHEDULE_MS.length; attempt++) {
    const plannedNextDelayMs = attempt < RETRY_SCHEDULE_MS.length ? jittered(RETRY_SCHEDULE_MS[attempt]!) : null;
    let result: Awaited<ReturnType<typeof attemptWebhookDelivery>>;
    try {
      result = await attemptWebhookDelivery({ runId, eventId, endpointId, sequence, attempt, plannedNextDelayMs });
    } catch (error) {
      // The event is gone: there is nothing to deliver, ever.
      if (permanentFailureType(error) !== PERMANENT_FAILURES.eventNotFound) throw error;
      await finishWebhookRun({ runId, endpointId, status: 'cancelled' });
      return 'cancelled';
    }
    if (result.outcome === 'duplicate') return 'duplicate';
    if (result.outcome === 'endpoint_disabled') {
      await finishWebhookRun({ runId, endpointId, status: 'cancelled' });
      return 'cancelled';
    }
    if (result.outcome === 'succeeded') return 'succeeded'; // the attempt ended the run
    if (result.outcome === 'permanently_failed') break;
    await sleep(result.nextDelayMs);
  }

  const disabled = await finishWebhookRun({ runId, endpointId, status: 'permanently_failed' });
  if (disabled) await notifyWebhookEndpointDisabled({ endpointId, ...disabled });
  return 'permanently_failed';
}
