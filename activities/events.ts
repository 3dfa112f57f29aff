// Activities of event dispatch and the outbox sweep. Each is idempotent:
// marking twice is a no-op, and a delivery run started twice hits the same
// workflow id (whd_<event>_<endpoint>, duplicates rejected), so it starts once.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Sql } from '../src/db/client.js';
import { wakeEventDispatcher } from '../src/events/dispatch.js';
import {
  claimUndispatchedEvents,
  findEvent,
  hasOverdueUndispatchedEvent,
  markEventDispatched,
  markEventsDispatched,
} from '../src/events/outbox.js';
import { findPendingWorkflowStarts, performWorkflowStart } from '../src/temporal/start-outbox.js';
import type { EmailDispatcher } from '../src/email/service.js';
import { queueReceiptsOfEvents } from '../src/receipts/dispatch.js';
import { findSubscribedEndpointsOfEvents } from '../src/webhooks/repo.js';
import { startDeliveryRun } from '../src/webhooks/starts.js';

/** Delivery runs a batch starts at once (each start is one round trip to Temporal). */
export const DELIVERY_STARTS_IN_FLIGHT = 32;

/** The heartbeat of an activity, or nothing outside one (a direct call in a test or script). */
function heartbeat(): void {
  try {
    Context.current().heartbeat();
  } catch {
    // not in an activity
  }
}

/** Logged in an activity, dropped outside one (a direct call in a test or script). */
function warn(message: string, attributes: Record<string, unknown>): void {
  try {
    Context.current().log.warn(message, attributes);
  } catch {
    // not in an activity
  }
}

export type EventActivityDeps = {
  sql: Sql;
  temporal: Client;
  taskQueue: string;
  /** Receipts (src/receipts): the emails queued for a batch's money events start after its commit. */
  emails?: EmailDispatcher;
  publicBaseUrl?: string;
};

export function createEventActivities({ sql, temporal, taskQueue, emails, publicBaseUrl }: EventActivityDeps) {
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

    /**
     * One batch of the dispatcher: claims up to `limit` undispatched events (row locks, other
     * claimers skip them), finds their subscribed active endpoints in one query, starts one
     * delivery run per pair (deterministic id, duplicates rejected), and marks the events
     * dispatched in the same transaction. A crash before commit releases the claim: the next
     * batch claims the same events again, and their runs that already started are not started twice.
     */
    async dispatchEventBatch(input: { limit: number }): Promise<{ claimed: number; started: number }> {
      const receiptEmails: string[] = [];
      const outcome = await sql.begin(async (tx) => {
        const events = await claimUndispatchedEvents(tx, input.limit);
        if (events.length === 0) return { claimed: 0, started: 0 };
        // In the claim's transaction: a batch that dies before commit is claimed again and queues them again, once.
        if (publicBaseUrl)
          receiptEmails.push(
            ...(await queueReceiptsOfEvents(tx, events, publicBaseUrl, (error, eventId) =>
              warn('queueing the receipt of an event failed; it gets none', { eventId, error: String(error) }),
            )),
          );
        const ids = events.map((e) => e.id);
        const scopeOf = new Map(events.map((e) => [e.id, { merchantId: e.merchantId, livemode: e.livemode }]));
        const pairs = await findSubscribedEndpointsOfEvents(tx, ids);
        let started = 0;
        let next = 0;
        await Promise.all(
          Array.from({ length: Math.min(DELIVERY_STARTS_IN_FLIGHT, pairs.length) }, async () => {
            while (next < pairs.length) {
              const pair = pairs[next++]!;
              if (
                await startDeliveryRun(temporal, taskQueue, scopeOf.get(pair.eventId)!, {
                  eventId: pair.eventId,
                  endpointId: pair.endpointId,
                  sequence: 0,
                })
              )
                started++;
              heartbeat();
            }
          }),
        );
        await markEventsDispatched(tx, ids);
        return { claimed: events.length, started };
      });
      if (emails && receiptEmails.length > 0) await emails.dispatch(sql, receiptEmails);
      return outcome;
    },

    /**
     * The sweep's safety net: when an event has waited longer than `olderThanSeconds` (its
     * wake-up was lost, or the dispatcher is not running), signals the dispatcher, starting it
     * if needed. Returns 1 when it woke it, else 0.
     */
    async wakeEventDispatcherIfBehind(input: { olderThanSeconds: number }): Promise<number> {
      if (!(await hasOverdueUndispatchedEvent(sql, input.olderThanSeconds))) return 0;
      await wakeEventDispatcher(temporal, taskQueue);
      return 1;
    },

    /**
     * Kept for outbox sweep runs recorded before the dispatcher (patch `event-dispatcher`): it
     * no longer starts a workflow per event, it wakes the dispatcher. Returns 0, which ends the
     * old run's loop.
     */
    async startPendingEventDispatches(input: { olderThanSeconds: number; limit: number }): Promise<number> {
      if (await hasOverdueUndispatchedEvent(sql, input.olderThanSeconds)) await wakeEventDispatcher(temporal, taskQueue);
      return 0;
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
