// Activities of event dispatch and the outbox sweep. Each is idempotent:
// marking twice is a no-op and starting a dispatch twice hits the same id.
import type { Client } from '@temporalio/client';
import type { Sql } from '../src/db/client.js';
import { startEventDispatch } from '../src/events/dispatch.js';
import { findEvent, findUndispatchedEventIds, markEventDispatched } from '../src/events/outbox.js';

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
  };
}

export type EventActivities = ReturnType<typeof createEventActivities>;
