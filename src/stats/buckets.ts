// Pure date and number math of the analytics endpoints: UTC calendar buckets,
// exact decimal rates and rational survival factors. No I/O, no clock.
// docs/analytics.md states every rule here with a worked example.

export const STATS_INTERVALS = ['day', 'week', 'month'] as const;
export type StatsInterval = (typeof STATS_INTERVALS)[number];

/** Longest `from`..`to` range, both days included (three years, one of them leap). */
export const MAX_SPAN_DAYS = 1096;
/** Most buckets one response holds (a year of days). */
export const MAX_BUCKETS = 366;
/** Digits after the decimal point of every rate. */
export const RATE_SCALE = 4;

const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD` calendar date to its UTC midnight, or undefined when it is not a real date. */
export function parseDay(value: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date;
}

export function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** First day of `date`'s month plus `months` months (UTC). */
export function monthStart(date: Date, months = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
}

/** Start (UTC midnight) of the interval unit containing `date`: the day, the ISO week (Monday) or the month. */
export function alignStart(date: Date, interval: StatsInterval): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  if (interval === 'day') return day;
  if (interval === 'week') return addDays(day, -((day.getUTCDay() + 6) % 7));
  return monthStart(day);
}

function nextStart(start: Date, interval: StatsInterval): Date {
  if (interval === 'day') return addDays(start, 1);
  if (interval === 'week') return addDays(start, 7);
  return monthStart(start, 1);
}

export type Bucket = {
  /** First day of the bucket inside the range (`YYYY-MM-DD`). */
  date: string;
  /** Inclusive start instant (UTC midnight). */
  start: Date;
  /** Exclusive end instant (UTC midnight). */
  end: Date;
};

/**
 * The buckets covering `from`..`to` (both days included): calendar days, ISO weeks from Monday, or
 * calendar months, the first and last cut to the range. 2024-02-10..2024-04-05 by month gives
 * [2024-02-10, 2024-03-01), [2024-03-01, 2024-04-01), [2024-04-01, 2024-04-06).
 */
export function buildBuckets(from: Date, to: Date, interval: StatsInterval): Bucket[] {
  const rangeEnd = addDays(to, 1);
  const buckets: Bucket[] = [];
  let start = from;
  while (start < rangeEnd) {
    const end = nextStart(alignStart(start, interval), interval);
    const clipped = end < rangeEnd ? end : rangeEnd;
    buckets.push({ date: formatDay(start), start, end: clipped });
    start = clipped;
  }
  return buckets;
}

/** How many buckets `from`..`to` makes, without building them. */
export function countBuckets(from: Date, to: Date, interval: StatsInterval): number {
  if (interval === 'day') return Math.round((to.getTime() - from.getTime()) / DAY_MS) + 1;
  if (interval === 'week') return Math.round((alignStart(to, 'week').getTime() - alignStart(from, 'week').getTime()) / (7 * DAY_MS)) + 1;
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() + 1;
}

export type RangeIssue = { path: string; message: string };

/** Why a `from`/`to`/`interval` query is refused, or [] when it is accepted. */
export function rangeIssues(fromText: string, toText: string, interval: StatsInterval): RangeIssue[] {
  const from = parseDay(fromText);
  const to = parseDay(toText);
  const issues: RangeIssue[] = [];
  if (!from) issues.push({ path: 'from', message: 'must be a calendar date YYYY-MM-DD' });
  if (!to) issues.push({ path: 'to', message: 'must be a calendar date YYYY-MM-DD' });
  if (!from || !to) return issues;
  if (from > to) return [{ path: 'from', message: 'must not be after `to`' }];
  const span = Math.round((to.getTime() - from.getTime()) / DAY_MS) + 1;
  if (span > MAX_SPAN_DAYS) return [{ path: 'to', message: `the range may cover at most ${MAX_SPAN_DAYS} days` }];
  if (countBuckets(from, to, interval) > MAX_BUCKETS) {
    return [{ path: 'interval', message: `the range makes more than ${MAX_BUCKETS} ${interval} buckets; use a longer interval` }];
  }
  return [];
}

/**
 * `numerator / denominator` as a decimal string with RATE_SCALE digits, rounded half up, computed
 * on integers (no floating point). A zero denominator gives "0.0000". rate(1n, 3n) = "0.3333",
 * rate(2n, 3n) = "0.6667", rate(5n, 4n) = "1.2500".
 */
export function rate(numerator: bigint, denominator: bigint, scale = RATE_SCALE): string {
  if (denominator === 0n) return formatScaled(0n, scale);
  const negative = numerator < 0n !== denominator < 0n && numerator !== 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const factor = 10n ** BigInt(scale);
  const scaled = (n * factor * 2n + d) / (2n * d);
  return (negative && scaled !== 0n ? '-' : '') + formatScaled(scaled, scale);
}

function formatScaled(scaled: bigint, scale: number): string {
  if (scale === 0) return scaled.toString();
  const text = scaled.toString().padStart(scale + 1, '0');
  return `${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

/** Integer division rounded toward zero for non-negative operands, 0 when dividing by 0. */
export function divOrZero(numerator: bigint, denominator: bigint): bigint {
  return denominator === 0n ? 0n : numerator / denominator;
}

/** Whole calendar months from `start` to `date` (both UTC midnights), counting a month only once its day is reached. */
export function wholeMonthsBetween(start: Date, date: Date): number {
  let months = (date.getUTCFullYear() - start.getUTCFullYear()) * 12 + date.getUTCMonth() - start.getUTCMonth();
  if (date.getUTCDate() < start.getUTCDate()) months -= 1;
  return Math.max(0, months);
}

/** `amount x (keep / total)^power`, truncated toward zero: what survives `power` months of churn `1 - keep/total`. */
export function survive(amount: bigint, keep: bigint, total: bigint, power: number): bigint {
  if (total === 0n) return amount;
  return (amount * keep ** BigInt(power)) / total ** BigInt(power);
}
