// The start of a payment session's workflow, queued in the transaction that creates the session.
import { paymentSessionWorkflow, paymentSessionWorkflowId } from '../../workflows/payment-session.js';
import { type WorkflowStart, workflowStart } from '../temporal/start-outbox.js';
import type { WorkflowTags } from '../temporal/workflow-tags.js';
import type * as repo from './repo.js';

type SessionKey = Pick<repo.PaymentSessionRow, 'id' | 'expiresAt' | 'merchantId' | 'livemode' | 'status'> & { testClockId?: string | null };

/** The run of a session's workflow: its id and input. */
export function paymentSessionWorkflowRun(
  taskQueue: string,
  row: SessionKey,
): { workflowId: string; taskQueue: string; args: Parameters<typeof paymentSessionWorkflow>; tags: WorkflowTags } {
  return {
    workflowId: paymentSessionWorkflowId(row.id),
    taskQueue,
    // The input names a test clock only when there is one: runs off a clock start as before clocks.
    args: [{ sessionId: row.id, expiresAt: row.expiresAt.toISOString(), ...(row.testClockId ? { testClockId: row.testClockId } : {}) }],
    tags: { merchantId: row.merchantId, livemode: row.livemode, object: 'payment_session', objectId: row.id, businessStatus: row.status },
  };
}

/** The start of the session's workflow, queued in the transaction that creates the session (src/temporal/start-outbox.ts). */
export function paymentSessionWorkflowStart(taskQueue: string, row: SessionKey): WorkflowStart {
  return workflowStart(paymentSessionWorkflow, paymentSessionWorkflowRun(taskQueue, row));
}
