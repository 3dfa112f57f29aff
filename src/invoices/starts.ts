// The start of an invoice's workflow (and the send signal), queued with the change that needs it.
import { invoiceWorkflow, invoiceWorkflowId, sendInvoiceSignal } from '../../workflows/invoice.js';
import { type WorkflowStart, withSignal, workflowStart } from '../temporal/start-outbox.js';
import type { WorkflowTags } from '../temporal/workflow-tags.js';
import type * as repo from './repo.js';

type InvoiceKey = Pick<repo.InvoiceRow, 'id' | 'dueAt' | 'merchantId' | 'livemode' | 'number' | 'status'> & { testClockId?: string | null };

/** The run of an invoice's workflow: its id and input. */
export function invoiceWorkflowRun(
  taskQueue: string,
  row: InvoiceKey,
): { workflowId: string; taskQueue: string; args: Parameters<typeof invoiceWorkflow>; tags: WorkflowTags } {
  return {
    workflowId: invoiceWorkflowId(row.id),
    taskQueue,
    // The input names a test clock only when there is one: runs off a clock start as before clocks.
    args: [{ invoiceId: row.id, dueAt: row.dueAt.toISOString(), ...(row.testClockId ? { testClockId: row.testClockId } : {}) }],
    tags: {
      merchantId: row.merchantId,
      livemode: row.livemode,
      object: 'invoice',
      objectId: row.id,
      businessStatus: row.status,
      invoiceNumber: row.number,
    },
  };
}

/** The start of an invoice's workflow; with `send`, a signal-with-start of the send. */
export function invoiceWorkflowStart(taskQueue: string, row: InvoiceKey, send = false): WorkflowStart {
  const start = workflowStart(invoiceWorkflow, invoiceWorkflowRun(taskQueue, row));
  return send ? withSignal(start, sendInvoiceSignal) : start;
}
