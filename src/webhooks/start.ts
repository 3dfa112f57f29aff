// Starting webhook delivery runs through the Temporal client (the fan-out
// activity and replay). The id is the business key and duplicates are
// rejected even after the first run closed, so starting twice sends once.
import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { startWorkflowOnce } from '../temporal/start-once.js';
import { webhookDeliveryWorkflow, webhookDeliveryWorkflowId } from '../../workflows/webhook-delivery.js';
import type { WebhookDeliveryInput } from './runs.js';

/** Starts a delivery run; false when a run with that id already exists (open or closed). */
export async function startDeliveryRun(client: Client, taskQueue: string, input: WebhookDeliveryInput): Promise<boolean> {
  return startWorkflowOnce(client, webhookDeliveryWorkflow, {
    workflowId: webhookDeliveryWorkflowId(input),
    taskQueue,
    args: [input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
  });
}

