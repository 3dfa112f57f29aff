// The usage chart's arithmetic, kept out of the page: the UTC range a pair of dates stands for, and the series of
// windows with the empty ones filled in (the API returns only windows that have events).
import type { MeterSummary } from './types.ts';

export type UsageWindow = 'hour' | 'day';

const DAY_MS = 86_400_000;
const STEP_MS: Record<UsageWindow, number> = { hour: 3_600_000, day: DAY_MS };
/** Above this many windows the chart shows only the windows with events (a year of hours would be 8,784 bars). */
export const MAX_FILLED_WINDOWS = 800;

/** From the start of `from` to the end of `to` (both YYYY-MM-DD, UTC, inclusive): whole UTC days, as the API asks. */
export function usageRange(from: string, to: string): { startTime: string; endTime: string } {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  return { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString() };
}

/** The last `days` UTC days up to today, as date-input values. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(today - (days - 1) * DAY_MS), to: day(today) };
}

export type UsagePoint = { start: string; label: string; value: string; chartValue: number };

/** A window's label: the UTC day, plus the hour for hourly windows. */
export function windowLabel(iso: string, window: UsageWindow): string {
  return window === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * One point per window from startTime to endTime, "0" where the API returned none (when there are at most
 * MAX_FILLED_WINDOWS of them; otherwise only the returned windows). `value` is the API's exact text;
 * `chartValue` is for the bar's height only.
 */
export function usageSeries(summaries: MeterSummary[], range: { startTime: string; endTime: string }, window: UsageWindow): UsagePoint[] {
  const point = (start: string, value: string): UsagePoint => ({
    start,
    label: windowLabel(start, window),
    value,
    chartValue: Number(value),
  });
  const step = STEP_MS[window];
  const start = Date.parse(range.startTime);
  const end = Date.parse(range.endTime);
  if ((end - start) / step > MAX_FILLED_WINDOWS) return summaries.map((s) => point(s.startTime, s.aggregatedValue));
  const byStart = new Map(summaries.map((s) => [Date.parse(s.startTime), s.aggregatedValue]));
  const points: UsagePoint[] = [];
  for (let t = start; t < end; t += step) points.push(point(new Date(t).toISOString(), byStart.get(t) ?? '0'));
  return points;
}
