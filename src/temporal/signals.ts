// Signalling workflows through the definitions workflows/<x>.ts export, so a
// signal's name and arguments are checked by the compiler on both sides.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition, Workflow } from '@temporalio/common';
import { startOptionsFor, type WorkflowTags } from './workflow-tags.js';

/** Delivers the signal; false when no run with that id is open (the caller's change is already committed). */
export async function signalIfRunning<Args extends unknown[]>(
  client: Client,
  workflowId: string,
  signal: SignalDefinition<Args>,
  ...args: Args
): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).signal(signal, ...args);
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** Delivers the signal, starting the workflow with `args` first when no run with that id is open. */
export async function signalWithStart<W extends Workflow, Args extends unknown[]>(
  client: Client,
  workflow: W,
  options: { workflowId: string; taskQueue: string; args: Parameters<W>; tags?: WorkflowTags },
  signal: SignalDefinition<Args>,
  ...signalArgs: Args
): Promise<void> {
  await client.workflow.signalWithStart(workflow, {
    workflowId: options.workflowId,
    taskQueue: options.taskQueue,
    args: options.args,
    signal,
    signalArgs,
    ...(await startOptionsFor(client, options.tags)),
  } as never);
}
