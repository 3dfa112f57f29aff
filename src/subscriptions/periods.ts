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

// --- SubscriptionManagerV2: the mean month and the charge window (docs/decisions.md
// "New enrolments on v2: the mean month and the charge window"). ---

/** The mean Gregorian month in seconds: 365.2425 d / 12. 4800 of them are exactly one 400-year cycle (146,097 d). */
export const MEAN_MONTH_SECONDS = 2_629_746;
const CYCLE_MONTHS = 4800;
const HOUR_SECONDS = 3600;

/** Days from 1970-01-01 to the first of month `i` counted from January 2000 (two cycles, so i + k needs no wrap); built on first use. */
let monthStartTable: number[] | undefined;
const monthStartDays = (): number[] =>
  (monthStartTable ??= Array.from({ length: 2 * CYCLE_MONTHS + 1 }, (_, i) => Date.UTC(2000, i, 1) / DAY_MS));

const driftCache = new Map<number, { earliest: number; latest: number }>();

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * How far the calendar start of a period (anchor + n x months, clamped to the month's end) lies
 * from the contract's start (anchor + n x months x MEAN_MONTH_SECONDS), in seconds, over every
 * anchor and every n: `earliest` <= calendar - contract <= `latest`.
 *
 * Why this scan covers every anchor. For an anchor on day d (time t) of month i, the calendar
 * start k months on is first-of-month(i + k) + (min(d, length(i + k)) - 1) days + t, and the
 * contract's is first-of-month(i) + (d - 1) days + t + k x mean. Their difference is
 *   [first(i + k) - first(i) - k x mean] - max(0, d - length(i + k)) days:
 * the time of day cancels, and the day only enters through the clamp, which is 0 for d = 1 (the
 * largest difference) and largest for d = length(i) (the smallest). So it is enough to scan every
 * starting month i of one 400-year cycle with those two days, for every k that is a multiple of
 * `months`: first(i + 4800) = first(i) + 146,097 days = first(i) + 4800 x mean, so the difference
 * is periodic in k with period 4800 and k = n x months mod 4800 covers the multiples of
 * gcd(months, 4800) below 4800. The contract's n counts from the anchor, so i is the anchor's month.
 */
export function meanMonthDriftSeconds(months: number): { earliest: number; latest: number } {
  if (!Number.isInteger(months) || months < 1) throw new RangeError('months must be an integer >= 1');
  const cached = driftCache.get(months);
  if (cached) return cached;
  const step = gcd(months, CYCLE_MONTHS);
  const first = monthStartDays();
  const lengthOf = (i: number) => first[i + 1]! - first[i]!;
  let earliest = 0;
  let latest = 0;
  for (let i = 0; i < CYCLE_MONTHS; i += 1) {
    const start = first[i]!;
    const length = lengthOf(i);
    for (let k = step; k < CYCLE_MONTHS; k += step) {
      const unclamped = (first[i + k]! - start) * 86_400 - k * MEAN_MONTH_SECONDS;
      if (unclamped > latest) latest = unclamped;
      const clamped = unclamped - Math.max(0, length - lengthOf(i + k)) * 86_400;
      if (clamped < earliest) earliest = clamped;
    }
  }
  const drift = { earliest, latest };
  driftCache.set(months, drift);
  return drift;
}

/** The largest distance, in seconds, between a calendar start and the contract's (D in the decision). */
export function meanMonthDriftBoundSeconds(months: number): number {
  const { earliest, latest } = meanMonthDriftSeconds(months);
  return Math.max(latest, -earliest);
}

/**
 * The `period` (seconds) SubscriptionManagerV2 enrolments sign for a plan: the mean Gregorian month
 * times the plan's months, or the exact length of day and week plans. Unlike v1's shortest gap
 * (onChainPeriodSeconds), it does not drift away from the calendar: the calendar start of every
 * period stays within meanMonthDriftBoundSeconds of the contract's.
 */
export function onChainPeriodSecondsV2(interval: PlanInterval, intervalCount: number): number {
  if (!Number.isInteger(intervalCount) || intervalCount < 1) throw new RangeError('intervalCount must be an integer >= 1');
  const months = MONTHS_PER_UNIT[interval];
  if (months !== undefined) return months * intervalCount * MEAN_MONTH_SECONDS;
  return DAYS_PER_UNIT[interval]! * intervalCount * 86_400;
}

/**
 * The `chargeWindow` (seconds) SubscriptionManagerV2 enrolments sign for a plan: the period plus
 * the drift bound, rounded up to a whole hour. Period n stays chargeable from the contract's start
 * until shortly after period n + 1 starts, so the later of the calendar start and the contract's
 * always falls inside it, and no older period can be charged. Day and week plans have no drift.
 */
export function chargeWindowSeconds(interval: PlanInterval, intervalCount: number): number {
  const period = onChainPeriodSecondsV2(interval, intervalCount);
  const months = MONTHS_PER_UNIT[interval];
  if (months === undefined) return period;
  const raw = period + meanMonthDriftBoundSeconds(months * intervalCount);
  return Math.ceil(raw / HOUR_SECONDS) * HOUR_SECONDS;
}

/**
 * The window the platform signs for a v2 `period` (seconds), for a relay that names no plan: a
 * whole number of mean months is a month-based plan's period, a whole number of days a day or week
 * plan's. Null for a period no plan has (such an enrolment is never recorded anyway).
 */
export function chargeWindowForPeriod(periodSeconds: number): number | null {
  if (!Number.isSafeInteger(periodSeconds) || periodSeconds <= 0) return null;
  if (periodSeconds % MEAN_MONTH_SECONDS === 0) return chargeWindowSeconds('monthly', periodSeconds / MEAN_MONTH_SECONDS);
  return periodSeconds % 86_400 === 0 ? periodSeconds : null;
}

/**
 * When the contract lets period `index` be charged (v2): firstPeriodStart + index x period. The
 * workflow charges at the later of this and the calendar start (periodStart).
 */
export function contractPeriodStart(firstPeriodStart: Date, periodSeconds: number, index: number): Date {
  return new Date(firstPeriodStart.getTime() + index * periodSeconds * 1000);
}

/**
 * When period `index` is charged: the later of its calendar start and the contract's. On v2 a
 * month-based plan's contract start may be up to a few days later than the calendar's; on v1
 * (the shortest gap) it is never later, so this is the calendar start there.
 */
export function chargeDueAt(calendarStart: Date, firstPeriodStart: Date, periodSeconds: number, index: number): Date {
  const contractStart = contractPeriodStart(firstPeriodStart, periodSeconds, index);
  return contractStart > calendarStart ? contractStart : calendarStart;
}
