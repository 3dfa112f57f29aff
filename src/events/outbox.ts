// The transactional outbox: the one helper every state change uses to record
// its event, inside the same transaction, so no event is lost or invented if a
// process dies between the two writes. Delivery reads from here.
import type { Db } from '../db/client.js';
import { newId } from '../ids.js';
import type { EventRecord, EventType } from './types.js';
import { testClockOfEvent } from '../test-clocks/event-clock.js';

export async function recordEvent(
  tx: Db,
  input: { merchantId: string; livemode: boolean; type: EventType; data: Record<string, unknown> },
): Promise<EventRecord> {
  const id = newId('event');
  const testClock = await testClockOfEvent(tx, input);
  if (testClock) input = { ...input, data: { ...input.data, testClock } };
  const [row] = await tx<{ createdAt: Date }[]>`
    insert into events (id, merchant_id, livemode, type, data)
    values (${id}, ${input.merchantId}, ${input.livemode}, ${input.type}, ${tx.json(input.data as never)})
    returning created_at as "createdAt"`;
  return { id, ...input, createdAt: row!.createdAt };
}

export async function findEvent(db: Db, id: string): Promise<(EventRecord & { dispatchedAt: Date | null }) | undefined> {
  const [row] = await db<(EventRecord & { dispatchedAt: Date | null })[]>`
    select id, merchant_id as "merchantId", livemode, type, data, created_at as "createdAt", dispatched_at as "dispatchedAt"
    from events where id = ${id}`;
  return row;
}

export async function markEventDispatched(db: Db, id: string): Promise<void> {
  await db`update events set dispatched_at = now() where id = ${id} and dispatched_at is null`;
}

/** The routing facts of an event the dispatcher claimed. */
export type ClaimedEvent = { id: string; merchantId: string; livemode: boolean; type: string };

/**
 * Claims up to `limit` undispatched events, oldest first, for the caller's
 * transaction: the rows stay locked until it ends, and rows another dispatcher
 * holds are skipped. If the caller dies before commit, the claim is released
 * and the events are claimed again.
 */
export async function claimUndispatchedEvents(tx: Db, limit: number): Promise<ClaimedEvent[]> {
  return tx<ClaimedEvent[]>`
    select id, merchant_id as "merchantId", livemode, type from events
    where dispatched_at is null
    order by created_at limit ${limit}
    for update skip locked`;
}

export async function markEventsDispatched(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db`update events set dispatched_at = now() where id in ${db(ids as string[])} and dispatched_at is null`;
}

/** Whether an event has waited for dispatch longer than `olderThanSeconds` (the dispatcher missed its wake-up). */
export async function hasOverdueUndispatchedEvent(db: Db, olderThanSeconds: number): Promise<boolean> {
  const rows = await db`
    select 1 from events
    where dispatched_at is null and created_at <= now() - make_interval(secs => ${olderThanSeconds})
    limit 1`;
  return rows.length > 0;
}
