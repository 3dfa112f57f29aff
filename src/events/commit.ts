// The one shape of a state change that emits events: the change and its events
// commit in one transaction (the outbox), and the dispatcher is woken after the
// commit, never before (it would look too early) and never for a rolled-back change.
import type { Db, Sql } from '../db/client.js';
import type { EventDispatcher } from './dispatch.js';
import { recordEvent } from './outbox.js';
import type { EventRecord } from './types.js';

export type NewEvent = Parameters<typeof recordEvent>[1];
/** Records an event inside the change's transaction. */
export type RecordEvent = (event: NewEvent) => Promise<EventRecord>;

/** Runs `change` in a transaction; the events it records are dispatched once it has committed. */
export async function commitWithEvents<T>(
  sql: Sql,
  events: EventDispatcher,
  change: (tx: Db, record: RecordEvent) => Promise<T>,
): Promise<T> {
  const recorded: string[] = [];
  // Wrapped so porsager's begin() does not unwrap an array result into a list of queries.
  const { result } = await sql.begin(async (tx) => ({
    result: await change(tx, async (event) => {
      const row = await recordEvent(tx, event);
      recorded.push(row.id);
      return row;
    }),
  }));
  if (recorded.length > 0) await events.dispatch(sql, recorded);
  return result;
}
