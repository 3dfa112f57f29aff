// Waking the event dispatcher. Recorded events are fanned out by one
// long-lived workflow per task queue (workflows/event-dispatcher.ts), which
// reads the outbox in batches. After commit the api (and any activity that
// records an event) signals it with signal-with-start, so an idle dispatcher
// looks at once and a missing one is started; the outbox sweep (a Temporal
// Schedule) wakes it for any event still waiting, so a lost signal only delays.
import type { Client } from '@temporalio/client';
import { eventDispatcherWorkflow, eventDispatcherWorkflowId, eventsRecordedSignal } from '../../workflows/event-dispatcher.js';
import type { Db } from '../db/client.js';
import { afterCommit } from '../db/request-transaction.js';
import { signalWithStart } from '../temporal/signals.js';

/** How long the api waits for Temporal to accept the wake-up after commit. */
export const DISPATCH_AFTER_COMMIT_TIMEOUT_MS = 3000;

export type EventDispatcher = {
  /** Best effort, once `written` (where the events were recorded) has committed: events whose wake-up fails here are picked up by the sweep. */
  dispatch(written: Db, eventIds: readonly string[]): Promise<void>;
};

/** Signals the dispatcher that events were committed, starting it if it is not running. */
export async function wakeEventDispatcher(client: Client, taskQueue: string): Promise<void> {
  await signalWithStart(
    client,
    eventDispatcherWorkflow,
    { workflowId: eventDispatcherWorkflowId(taskQueue), taskQueue, args: [{}] },
    eventsRecordedSignal,
  );
}

/** The least time between two wake-ups sent by one process: a renewal day's burst of commits costs a few signals a second. */
export const WAKE_MIN_INTERVAL_MS = 250;

/**
 * Wake-ups coalesced per process: while one signal is on the wire, or less than
 * `minIntervalMs` after the last one was sent, every commit that happens
 * meanwhile waits for the single next signal. Each caller is answered by a
 * signal sent after its commit (so the dispatcher's next look sees its events),
 * and a burst of N commits costs at most one signal per interval instead of N.
 */
export function coalescedWake(wake: () => Promise<void>, minIntervalMs = WAKE_MIN_INTERVAL_MS): () => Promise<void> {
  let onTheWire: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  const send = (): Promise<void> => {
    lastSentAt = Date.now();
    const sent: Promise<void> = wake().finally(() => {
      if (onTheWire === sent) onTheWire = undefined;
    });
    onTheWire = sent;
    return sent;
  };
  const untilIntervalEnds = () => {
    const wait = lastSentAt + minIntervalMs - Date.now();
    return wait > 0 ? new Promise<void>((resolve) => setTimeout(resolve, wait)) : undefined;
  };
  return () => {
    if (next) return next;
    if (!onTheWire && Date.now() >= lastSentAt + minIntervalMs) return send();
    next = (onTheWire ?? Promise.resolve())
      .catch(() => undefined)
      .then(untilIntervalEnds)
      .then(() => {
        next = undefined;
        return send();
      });
    return next;
  };
}

export function createEventDispatcher(
  client: Client | undefined,
  taskQueue: string,
  onError: (error: unknown, eventId: string) => void,
  timeoutMs = DISPATCH_AFTER_COMMIT_TIMEOUT_MS,
): EventDispatcher {
  // Bounded: with Temporal unreachable the client would retry for about 20 s, and a request that
  // already committed should not wait for that (the sweep wakes the dispatcher for what is left).
  const wake = coalescedWake(() => client!.withDeadline(Date.now() + timeoutMs, () => wakeEventDispatcher(client!, taskQueue)));
  return {
    async dispatch(written, eventIds) {
      if (!client || eventIds.length === 0) return;
      // On a request's transaction the events commit with its response: wake the dispatcher after that.
      await afterCommit(written, () => wakeFor(eventIds));
    },
  };

  async function wakeFor(eventIds: readonly string[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const attempt = wake();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Temporal did not accept the dispatcher wake-up within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      // The deadline bounds the call; the race also bounds connecting to an unreachable server.
      await Promise.race([attempt, timeout]);
    } catch (error) {
      attempt.catch(() => undefined);
      for (const id of eventIds) onError(error, id);
    } finally {
      clearTimeout(timer);
    }
  }
}
