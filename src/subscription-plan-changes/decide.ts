// What a plan change does, decided from the subscription's terms, its calendar and the time of the request
// (docs/decisions.md "Plan changes with proration"). Pure: the service reads and writes, this decides.
import { periodStart, type Schedule } from '../subscriptions/periods.js';
import { prorationAmount } from './proration.js';

export type PlanChangeDecision =
  /** In effect now: the price changes at once; `prorationAmount` is collected with the next period's charge. */
  | { kind: 'applied'; periodIndex: number | null; effectiveAt: Date; prorationAmount: bigint }
  /** A cheaper (or equal) plan: from the start of the next period. */
  | { kind: 'scheduled'; periodIndex: number; effectiveAt: Date; effectivePeriodIndex: number }
  /** More than the customer authorised on chain per period: waits for the customer, charges nothing. */
  | { kind: 'requires_customer_action'; periodIndex: number | null }
  /** A downgrade asked for during the last authorised period: there is no next period to apply it to. */
  | { kind: 'no_next_period' };

export function decidePlanChange(input: {
  schedule: Schedule;
  /** Authorised periods; 0 = open-ended. */
  periods: number;
  /** The on-chain cap per period. */
  cap: bigint;
  /** What a period charges now (before a discount). */
  currentAmount: bigint;
  newAmount: bigint;
  prorate: boolean;
  /** The last charged period, the search's starting point. */
  currentPeriodIndex: number | null;
  now: Date;
}): PlanChangeDecision {
  const inTrial = input.now.getTime() < input.schedule.anchor.getTime();
  const periodIndex = inTrial ? null : periodInProgress(input.schedule, input.currentPeriodIndex ?? 0, input.now);
  if (input.newAmount > input.cap) return { kind: 'requires_customer_action', periodIndex };
  // Nothing is charged before period 0: any change takes effect at once, with nothing to prorate.
  if (periodIndex === null) return { kind: 'applied', periodIndex, effectiveAt: input.now, prorationAmount: 0n };
  if (input.newAmount > input.currentAmount) {
    const proration = input.prorate
      ? prorationAmount({
          fromAmount: input.currentAmount,
          toAmount: input.newAmount,
          periodStart: periodStart(input.schedule, periodIndex),
          periodEnd: periodStart(input.schedule, periodIndex + 1),
          at: input.now,
        })
      : 0n;
    // Collected beside the next period's new amount, in one pull that the cap bounds.
    const room = input.cap - input.newAmount;
    return { kind: 'applied', periodIndex, effectiveAt: input.now, prorationAmount: proration < room ? proration : room };
  }
  const next = periodIndex + 1;
  if (input.periods !== 0 && next >= input.periods) return { kind: 'no_next_period' };
  return { kind: 'scheduled', periodIndex, effectiveAt: periodStart(input.schedule, next), effectivePeriodIndex: next };
}

/** The period whose calendar span holds `now` (at or after period 0's start), searched from `from`. */
export function periodInProgress(schedule: Schedule, from: number, now: Date): number {
  let index = Math.max(0, from);
  while (periodStart(schedule, index).getTime() > now.getTime() && index > 0) index -= 1;
  while (periodStart(schedule, index + 1).getTime() <= now.getTime()) index += 1;
  return index;
}
