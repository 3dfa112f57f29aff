// Calendar-correct billing periods, all in UTC. Pure (no I/O, no clock), so
// the subscription workflow may call it from deterministic code.
//
// Period n starts at anchor + n x (intervalCount x interval), always computed
// from the anchor (never by chaining from the previous start), so monthly,
// quarterly and yearly schedules keep the anchor's day of month and clamp to
// the month's end only when that day does not exist: Jan 31 -> Feb 28 (or 29)
// -> Mar 31 -> Apr 30. Daily and weekly periods are exact multiples of 24 h
// (UTC has no daylight saving).

export type PlanInterval = 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';

const DAY_MS = 86_400_000;

const MONTHS_PER_UNIT: Partial<Record<PlanInterval, number>> = { monthly: 1, quarterly: 3, yearly: 12 };
const DAYS_PER_UNIT: Partial<Record<PlanInterval, number>> = { daily: 1, weekly: 7 };

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** `date` plus `months` calendar months, clamping the day to the target month's last day. */
export function addMonths(date: Date, months: number): Date {
  if (!Number.isInteger(months)) throw new RangeError('months must be an integer');
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  return new Date(Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
}

export type Schedule = { anchor: Date; interval: PlanInterval; intervalCount: number };

function checkSchedule(schedule: Schedule): void {
  if (!Number.isInteger(schedule.intervalCount) || schedule.intervalCount < 1) {
    throw new RangeError('intervalCount must be an integer >= 1');
  }
  if (Number.isNaN(schedule.anchor.getTime())) throw new RangeError('anchor must be a valid date');
}

/** Start of period `index` (0-based); period 0 starts at the anchor. */
export function periodStart(schedule: Schedule, index: number): Date {
  checkSchedule(schedule);
  if (!Number.isInteger(index) || index < 0) throw new RangeError('period index must be an integer >= 0');
  const months = MONTHS_PER_UNIT[schedule.interval];
  if (months !== undefined) return addMonths(schedule.anchor, months * schedule.intervalCount * index);
  const days = DAYS_PER_UNIT[schedule.interval]!;
  return new Date(schedule.anchor.getTime() + days * schedule.intervalCount * index * DAY_MS);
}

/** End of period `index` (exclusive) = start of the next one. */
export function periodEnd(schedule: Schedule, index: number): Date {
  return periodStart(schedule, index + 1);
}

const minimumGapCache = new Map<number, number>();

/**
 * The shortest time, in whole days, between two consecutive period starts of
 * an `months`-month schedule over every possible anchor (found by scanning
 * every anchor day of a leap cycle: 2000-01-01 .. 2007-12-31).
 */
function minimumMonthGapDays(months: number): number {
  const cached = minimumGapCache.get(months);
  if (cached !== undefined) return cached;
  let min = Number.POSITIVE_INFINITY;
  for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2008, 0, 1); t += DAY_MS) {
    const anchor = new Date(t);
    const gap = (addMonths(anchor, months).getTime() - t) / DAY_MS;
    if (gap < min) min = gap;
  }
  minimumGapCache.set(months, min);
  return min;
}

/**
 * The `period` (seconds) written into the on-chain Terms for a plan.
 *
 * The contract lets period n be charged from firstPeriodStart + n x period.
 * For daily and weekly plans that is the calendar exactly. Calendar months
 * vary in length, so for monthly, quarterly and yearly plans this is the
 * SHORTEST gap between two consecutive calendar period starts (28 days for
 * monthly, 89 for quarterly, 365 for yearly, times intervalCount handled by
 * scanning): the calendar start of period n is then never earlier than the
 * contract allows, and the contract's once-per-index guard still forbids a
 * second charge of the same period. The calendar (this module) decides WHEN
 * the workflow charges; the contract is the subscriber's upper bound.
 */
export function onChainPeriodSeconds(interval: PlanInterval, intervalCount: number): number {
  if (!Number.isInteger(intervalCount) || intervalCount < 1) throw new RangeError('intervalCount must be an integer >= 1');
  const months = MONTHS_PER_UNIT[interval];
  if (months !== undefined) return minimumMonthGapDays(months * intervalCount) * 86_400;
  return DAYS_PER_UNIT[interval]! * intervalCount * 86_400;
}
