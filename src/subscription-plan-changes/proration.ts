// The proration of an upgrade, in integer token base units (docs/decisions.md "Plan changes with proration").
//
//   proration = floor((newAmount - oldAmount) * remainingSeconds / periodSeconds)
//
// periodSeconds is the length of the calendar period in progress (its start to the next period's start,
// whole seconds), remainingSeconds the whole seconds from the change to the period's end, clamped to
// [0, periodSeconds]. Rounding is down (the customer is never charged a fraction of a unit more).

/** Whole seconds between two instants, rounded down. */
const wholeSeconds = (from: Date, to: Date): bigint => BigInt(Math.floor((to.getTime() - from.getTime()) / 1000));

export function prorationAmount(input: { fromAmount: bigint; toAmount: bigint; periodStart: Date; periodEnd: Date; at: Date }): bigint {
  if (input.toAmount <= input.fromAmount) return 0n;
  const periodSeconds = wholeSeconds(input.periodStart, input.periodEnd);
  if (periodSeconds <= 0n) return 0n;
  let remaining = wholeSeconds(input.at, input.periodEnd);
  if (remaining < 0n) remaining = 0n;
  if (remaining > periodSeconds) remaining = periodSeconds;
  return ((input.toAmount - input.fromAmount) * remaining) / periodSeconds;
}

/** A period's charge with the prorations it collects: never more than the cap the customer authorised. */
export function chargedWithProrations(periodAmount: bigint, prorations: bigint, cap: bigint): bigint {
  const total = periodAmount + prorations;
  return total < cap ? total : cap;
}
