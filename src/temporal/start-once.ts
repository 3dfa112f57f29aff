// Starting a workflow whose id is a business key, so that starting it twice
// (the api and a sweep racing, a retried activity, a replayed hook) has the
// effect of starting it once. Callers pass the workflow function exported by
// workflows/<x>.ts: its name is the workflow type and its parameters type the args.
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowIdReusePolicy } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { startOptionsFor, type WorkflowTags } from './workflow-tags.js';

export type StartOnceOptions<W extends Workflow> = {
  workflowId: string;
  taskQueue: string;
  args: Parameters<W>;
  /** Default: a new run may start once the previous one closed; REJECT_DUPLICATE forbids even that. */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
  /** Memo and search attributes (src/temporal/workflow-tags.ts). */
  tags?: WorkflowTags;
};

/**
 * True when this call started the workflow; false when a run with that id is open (or, per policy,
 * retained). A workflow type given by name is for the start outbox only, which stores it as data.
 */
export async function startWorkflowOnce<W extends Workflow>(
  client: Client,
  workflow: W | string,
  options: StartOnceOptions<W>,
): Promise<boolean> {
  const base = {
    workflowId: options.workflowId,
    taskQueue: options.taskQueue,
    args: options.args,
    ...(options.workflowIdReusePolicy !== undefined ? { workflowIdReusePolicy: options.workflowIdReusePolicy } : {}),
  };
  try {
    await client.workflow.start(workflow as W, { ...base, ...(await startOptionsFor(client, options.tags)) } as never);
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}
