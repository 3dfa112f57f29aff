// Activities of event dispatch and the outbox sweep. Each is idempotent:
// marking twice is a no-op and starting a dispatch twice hits the same id.
import type { Client } from '@temporalio/client';
import type { Sql } from '../src/db/client.js';
import { startEventDispatch } from '../src/events/dispatch.js';
import { findEvent, findUndispatchedEventIds, markEventDispatched } from '../src/events/outbox.js';
import { findPendingWorkflowStarts, performWorkflowStart } from '../src/temporal/start-outbox.js';

export type EventActivityDeps = { sql: Sql; temporal: Client; taskQueue: string };

export function createEventActivities({ sql, temporal, taskQueue }: EventActivityDeps) {
  return {
    /** The event's routing facts, or null when it does not exist. */
    async loadEvent(eventId: string): Promise<{ id: string; merchantId: string; livemode: boolean; type: string } | null> {
      const event = await findEvent(sql, eventId);
      if (!event) return null;
      return { id: event.id, merchantId: event.merchantId, livemode: event.livemode, type: event.type };
    },

    async markEventDispatched(eventId: string): Promise<void> {
      await markEventDispatched(sql, eventId);
    },

    /** Starts dispatch for events the api recorded but never started; returns how many it started. */
    async startPendingEventDispatches(input: { olderThanSeconds: number; limit: number }): Promise<number> {
      const ids = await findUndispatchedEventIds(sql, input.olderThanSeconds, input.limit);
      let started = 0;
      for (const id of ids) if (await startEventDispatch(temporal, taskQueue, id)) started++;
      return started;
    },

    /**
     * Performs the workflow starts (and signal-with-starts) the api queued but could not perform
     * after commit; returns how many it performed. A start Temporal refuses stays pending with its
     * error recorded, and is tried again by the next sweep.
     */
    async startPendingWorkflowStarts(input: { olderThanSeconds: number; limit: number }): Promise<{ performed: number; found: number }> {
      const starts = await findPendingWorkflowStarts(sql, input.olderThanSeconds, input.limit);
      let performed = 0;
      for (const start of starts) {
        try {
          await performWorkflowStart(temporal, sql, start);
          performed++;
        } catch {
          // Recorded on the row (attempts, last_error); the next sweep tries again.
        }
      }
      return { performed, found: starts.length };
    },
  };
}

export type EventActivities = ReturnType<typeof createEventActivities>;
