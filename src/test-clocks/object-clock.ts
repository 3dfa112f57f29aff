// The test clock a new payment session or invoice is created on (`testClock` in the body, issue
// #30): its expiry or due date is counted from the clock's time, the business time of its object.
import type { Db } from '../db/client.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { findTestClock } from './repo.js';

/** `chainId`: the clock's own chain (TEST_CLOCK_CHAINS=fork), where its objects are paid; null: the mode's chains. */
export type ObjectClock = { testClockId: string | null; nowMs: number; chainId: number | null };

/**
 * Wall time when `testClockId` is absent; else the caller's clock and its time. A clock of another
 * merchant, of the other mode or deleted is `not_found`; live mode has no clocks.
 */
export async function objectClock(db: Db, scope: MerchantScope, testClockId: string | undefined): Promise<ObjectClock> {
  if (testClockId === undefined) return { testClockId: null, nowMs: Date.now(), chainId: null };
  if (scope.livemode)
    throw new InvalidRequestError('Test clocks exist in test mode only: `testClock` needs a sk_test_ key.', { param: 'testClock' });
  const clock = await findTestClock(db, scope, testClockId);
  if (!clock || clock.status === 'deleted') throw new NotFoundError(`No such test clock: ${testClockId}.`, { param: 'testClock' });
  return { testClockId: clock.id, nowMs: clock.frozenTime.getTime(), chainId: clock.chainId === null ? null : Number(clock.chainId) };
}
