// Business time of a subscription (issue #30, docs/operations.md "Test clocks"): when its payer
// wallet is on a live test clock, the times a subscription records about its life (at risk since,
// cancelled, lapsed, completed) are the clock's, as Stripe does; else the wall clock's. `createdAt`,
// `updatedAt` and delivery times stay wall time: they say when the record was written.
import type { Db } from '../db/client.js';

/**
 * The clock's time: while it advances, the time it moves to (attached workflows act at that time
 * before the clock is `ready` again).
 */
export async function businessNow(
  db: Db,
  sub: { merchantId: string; livemode: boolean; subscriberAddress: string },
  /** The time off a clock (a test on the time-skipping server passes its time); default the wall clock. */
  wallNow: () => Date = () => new Date(),
): Promise<Date> {
  if (sub.livemode) return wallNow();
  const [row] = await db<{ at: Date }[]>`
    select coalesce(c.advancing_to, c.frozen_time) as at from test_clock_wallets w join test_clocks c on c.id = w.test_clock_id
    where w.merchant_id = ${sub.merchantId} and w.wallet_address = ${sub.subscriberAddress.toLowerCase()}
      and w.detached_at is null and c.status <> 'deleted'`;
  return row?.at ?? wallNow();
}

/**
 * A payment session's business time in ms (issue 36, item 8): a session created on a clock expires on
 * the clock's time, so whether a transfer to it is on time or late is judged by that time too (while
 * the clock advances, the time it moves to). A deleted clock's sessions end with it: its time is past
 * every deadline. Off a clock: wall time.
 */
export async function sessionBusinessNowMs(db: Db, session: { testClockId: string | null; livemode: boolean }): Promise<number> {
  if (session.livemode || !session.testClockId) return Date.now();
  const [clock] = await db<{ at: Date; deleted: boolean }[]>`
    select coalesce(advancing_to, frozen_time) as at, status = 'deleted' as deleted from test_clocks where id = ${session.testClockId}`;
  if (!clock) return Date.now();
  return clock.deleted ? Number.POSITIVE_INFINITY : clock.at.getTime();
}
