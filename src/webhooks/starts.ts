// Starting webhook delivery runs through the Temporal client (the fan-out
// activity and replay). The id is the business key and duplicates are
// rejected even after the first run closed, so starting twice sends once.
import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { startWorkflowOnce } from '../temporal/start-once.js';
import { webhookDeliveryWorkflow, webhookDeliveryWorkflowId } from '../../workflows/webhook-delivery.js';
import type { MerchantScope } from '../http/principal.js';
import type { WorkflowTags } from '../temporal/workflow-tags.js';
import type { WebhookDeliveryInput } from './runs.js';

/** What an operator finds a delivery run by: the merchant, the mode and the endpoint. */
export function deliveryRunTags(scope: MerchantScope, input: WebhookDeliveryInput): WorkflowTags {
  return { merchantId: scope.merchantId, livemode: scope.livemode, webhookEndpointId: input.endpointId };
}

/** Starts a delivery run; false when a run with that id already exists (open or closed). */
export async function startDeliveryRun(
  client: Client,
  taskQueue: string,
  scope: MerchantScope,
  input: WebhookDeliveryInput,
): Promise<boolean> {
  return startWorkflowOnce(client, webhookDeliveryWorkflow, {
    workflowId: webhookDeliveryWorkflowId(input),
    taskQueue,
    args: [input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    tags: deliveryRunTags(scope, input),
  });
}
