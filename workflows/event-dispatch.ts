// dispatchEventWorkflow: one per event in the outbox (workflow id = event id).
// It fans the event out to every subscribed, active webhook endpoint of the
// event's merchant and mode (one webhookDeliveryWorkflow each, abandoned so it
// outlives this workflow), then marks the event dispatched, so the outbox
// sweep never starts it again. Child ids are business keys and duplicates are
// rejected, so a second dispatch of the same event starts nothing new.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, WorkflowIdReusePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { deliveryRunId } from '../src/webhooks/runs.js';
import { DATABASE_ACTIVITY } from './options.js';
import { webhookDeliveryWorkflow } from './webhook-delivery.js';

const { loadEvent, markEventDispatched, findSubscribedWebhookEndpoints } = proxyActivities<Activities>(DATABASE_ACTIVITY);

export type DispatchEventInput = { eventId: string };

/** Returns how many delivery runs it started. */
export async function dispatchEventWorkflow({ eventId }: DispatchEventInput): Promise<number> {
  const event = await loadEvent(eventId);
  if (!event) return 0;
  const endpointIds = await findSubscribedWebhookEndpoints({ merchantId: event.merchantId, livemode: event.livemode, type: event.type });
  const started = await Promise.all(
    endpointIds.map(async (endpointId) => {
      const input = { eventId, endpointId, sequence: 0 };
      try {
        await startChild(webhookDeliveryWorkflow, {
          workflowId: deliveryRunId(input),
          args: [input],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
        return 1;
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) return 0;
        throw error;
      }
    }),
  );
  await markEventDispatched(eventId);
  return started.reduce<number>((a, b) => a + b, 0);
}
