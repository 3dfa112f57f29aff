// SQL for the shared rate-limit counters (one row per bucket and window).
import type { Db } from '../db/client.js';

export type CounterIncrement = { bucket: string; window: number; count: number };

/** Adds the increments and returns the global totals after them, in one statement. */
export async function addToCounters(db: Db, increments: CounterIncrement[]): Promise<CounterIncrement[]> {
  if (increments.length === 0) return [];
  return db<CounterIncrement[]>`
    insert into rate_limit_counters (bucket, window_start, count)
    select * from unnest(${db.array(increments.map((i) => i.bucket))}::text[],
                         ${db.array(increments.map((i) => i.window))}::bigint[],
                         ${db.array(increments.map((i) => i.count))}::bigint[])
    on conflict (bucket, window_start) do update set count = rate_limit_counters.count + excluded.count
    returning bucket, window_start::float8 as "window", count::float8 as "count"`;
}

export async function deleteWindowsBefore(db: Db, window: number): Promise<void> {
  await db`delete from rate_limit_counters where window_start < ${window}`;
}
