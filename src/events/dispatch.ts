// Starting the dispatch of recorded events. The api starts it right after the
// commit for low latency; the outbox sweep (a Temporal Schedule) starts any the
// api missed. The workflow id is the event id, so both may try without harm.
import type { Client } from '@temporalio/client';
import { startWorkflowOnce } from '../temporal/start-once.js';

export const DISPATCH_EVENT_WORKFLOW = 'dispatchEventWorkflow';

export type EventDispatcher = {
  /** Best effort: an event whose start fails here is picked up by the sweep. */
  dispatch(eventIds: readonly string[]): Promise<void>;
};

export async function startEventDispatch(client: Client, taskQueue: string, eventId: string): Promise<boolean> {
  return startWorkflowOnce(client, { workflowType: DISPATCH_EVENT_WORKFLOW, workflowId: eventId, taskQueue, args: [{ eventId }] });
}

export function createEventDispatcher(
  client: Client | undefined,
  taskQueue: string,
  onError: (error: unknown, eventId: string) => void,
): EventDispatcher {
  return {
    async dispatch(eventIds) {
      if (!client) return;
      await Promise.all(
        eventIds.map((id) => startEventDispatch(client, taskQueue, id).catch((error: unknown) => onError(error, id))),
      );
    },
  };
}
