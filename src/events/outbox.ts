// The transactional outbox: the one helper every state change uses to record
// its event, inside the same transaction, so no event is lost or invented if a
// process dies between the two writes. Delivery reads from here.
import type { Db } from '../db/client.js';
import { newId } from '../ids.js';
import type { EventRecord, EventType } from './types.js';

export async function recordEvent(
  tx: Db,
  input: { merchantId: string; livemode: boolean; type: EventType; data: Record<string, unknown> },
): Promise<EventRecord> {
  const id = newId('event');
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

/** Events whose dispatch was never started (the starter died after commit). */
export async function findUndispatchedEventIds(db: Db, olderThanSeconds: number, limit: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from events
    where dispatched_at is null and created_at <= now() - make_interval(secs => ${olderThanSeconds})
    order by created_at limit ${limit}`;
  return rows.map((r) => r.id);
}
