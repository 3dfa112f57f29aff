// The start of a refund's workflow, queued in the transaction that creates the refund.
import { refundWorkflow, refundWorkflowId } from '../../workflows/refund.js';
import { type WorkflowStart, workflowStart } from '../temporal/start-outbox.js';
import type * as repo from './repo.js';

export function refundWorkflowStart(
  taskQueue: string,
  row: Pick<repo.RefundRow, 'id' | 'merchantId' | 'livemode' | 'status' | 'chainId'>,
): WorkflowStart {
  return workflowStart(refundWorkflow, {
    workflowId: refundWorkflowId(row.id),
    taskQueue,
    args: [{ refundId: row.id }],
    tags: {
      merchantId: row.merchantId,
      livemode: row.livemode,
      object: 'refund',
      objectId: row.id,
      businessStatus: row.status,
      chainId: Number(row.chainId),
    },
  });
}
