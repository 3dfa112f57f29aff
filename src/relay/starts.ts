// The start of a relay submission's workflow (id from merchant, mode and Idempotency-Key).
import type { Client } from '@temporalio/client';
import { relaySubmissionWorkflow, relayWorkflowId } from '../../workflows/relay-submission.js';
import { startWorkflowOnce } from '../temporal/start-once.js';
import type * as repo from './repo.js';

/** Starts the submission's workflow; an already running (or retained) one is left alone. */
export async function startRelayWorkflow(
  temporal: Client,
  taskQueue: string,
  row: Pick<repo.SubmissionRow, 'id' | 'merchantId' | 'livemode' | 'idempotencyKey' | 'status' | 'chainId'>,
): Promise<boolean> {
  return startWorkflowOnce(temporal, relaySubmissionWorkflow, {
    workflowId: relayWorkflowId(row),
    taskQueue,
    args: [{ submissionId: row.id, livemode: row.livemode }],
    tags: {
      merchantId: row.merchantId,
      livemode: row.livemode,
      object: 'relay_submission',
      objectId: row.id,
      businessStatus: row.status,
      chainId: Number(row.chainId),
    },
  });
}
