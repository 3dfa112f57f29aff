// Starting the dispatch of recorded events. The api starts it right after the
// commit for low latency; the outbox sweep (a Temporal Schedule) starts any the
// api missed. The workflow id is the event id, so both may try without harm.
import type { Client } from '@temporalio/client';
import { startWorkflowOnce } from '../temporal/start-once.js';

export const DISPATCH_EVENT_WORKFLOW = 'dispatchEventWorkflow';

/** How long the api waits for Temporal to accept a dispatch after commit. */
export const DISPATCH_AFTER_COMMIT_TIMEOUT_MS = 3000;

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
      // Bounded: with Temporal unreachable the client would retry for about 20 s, and a request that
      // already committed should not wait for that (the sweep dispatches what is left).
      const deadline = Date.now() + DISPATCH_AFTER_COMMIT_TIMEOUT_MS;
      await Promise.all(
        eventIds.map((id) =>
          client.withDeadline(deadline, () => startEventDispatch(client, taskQueue, id)).catch((error: unknown) => onError(error, id)),
        ),
      );
    },
  };
}
