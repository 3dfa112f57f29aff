// Starting a workflow whose id is a business key, so that starting it twice
// (the api and a sweep racing, a retried activity, a replayed hook) has the
// effect of starting it once.
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowIdReusePolicy } from '@temporalio/client';

export type StartOnceInput = {
  workflowType: string;
  workflowId: string;
  taskQueue: string;
  args: unknown[];
  /** Default: a new run may start once the previous one closed; REJECT_DUPLICATE forbids even that. */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
};

/** True when this call started the workflow; false when a run with that id is open (or, per policy, retained). */
export async function startWorkflowOnce(client: Client, input: StartOnceInput): Promise<boolean> {
  try {
    await client.workflow.start(input.workflowType, {
      workflowId: input.workflowId,
      taskQueue: input.taskQueue,
      args: input.args,
      ...(input.workflowIdReusePolicy !== undefined ? { workflowIdReusePolicy: input.workflowIdReusePolicy } : {}),
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}
