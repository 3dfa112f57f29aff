// Display helpers. Amounts arrive as integer strings in token base units
// (USDC: 6 decimals) and are formatted with string and bigint arithmetic,
// never floats. Dates are shown in the viewer's time zone.

import { describeMoneyInput, formatBaseUnits, parseMoneyInput } from './shared.js';

export const USDC_DECIMALS = 6;

/** "12345678" -> "12.345678 USDC", "1000000000" -> "1,000.00 USDC": the server's money formatter (src/money), so page, PDF, email and dashboard agree. */
export function formatAmount(base: string | null | undefined, currency = 'USDC', decimals = USDC_DECIMALS): string {
  if (base === null || base === undefined || !/^-?\d+$/.test(base)) return '—';
  return `${formatBaseUnits(base, decimals)} ${currency}`;
}

/**
 * "12.5" -> "12500000"; undefined when the text is refused by the one money-input rule (src/money/parse.ts:
 * a dot for decimals, no comma or other separator, at most `decimals` decimals). `describeMoneyInput` says why.
 */
export function parseAmount(text: string, decimals = USDC_DECIMALS): string | undefined {
  const parsed = parseMoneyInput(text, decimals);
  return parsed.ok ? parsed.baseUnits : undefined;
}

/** The refusal of a typed amount (the parser's sentence), for a form's submit. */
export function amountError(text: string, decimals = USDC_DECIMALS): string | undefined {
  const parsed = parseMoneyInput(text, decimals);
  return parsed.ok ? undefined : parsed.message;
}

export { describeMoneyInput };

/** A base-unit amount as a number of whole units with cent precision, for chart geometry only (labels use formatAmount). */
export function chartUnits(base: string): number {
  const cents = BigInt(base) / 10n ** BigInt(USDC_DECIMALS - 2);
  return Number(cents) / 100;
}

/** "0.1234" (a ratio string) -> "12.34 %". */
export function formatRate(rate: string | null | undefined): string {
  if (!rate || !/^-?\d+\.\d+$/.test(rate)) return '—';
  const [whole, fraction = ''] = rate.split('.');
  const padded = fraction.padEnd(4, '0');
  const percent = `${BigInt(whole! + padded.slice(0, 2))}`;
  return `${percent}.${padded.slice(2, 4)} %`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** An ISO timestamp in the viewer's time zone. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateOnly.format(date);
}

/** A UTC calendar day (YYYY-MM-DD) as a short month label, e.g. "Mar 2026". */
export function monthLabel(day: string): string {
  const [y, m] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y!, m! - 1, 1));
}

export function shortId(id: string): string {
  return id.length > 16 ? `${id.slice(0, 10)}…${id.slice(-4)}` : id;
}

const INTERVAL_UNITS: Record<string, [string, string]> = {
  daily: ['day', 'days'],
  weekly: ['week', 'weeks'],
  monthly: ['month', 'months'],
  quarterly: ['quarter', 'quarters'],
  yearly: ['year', 'years'],
};

/** A plan's billing period in words: "monthly", "every 2 quarters", "every 10 days". */
export function describeInterval(plan: { interval: string; intervalCount: number }): string {
  if (plan.intervalCount === 1) return plan.interval;
  const unit = INTERVAL_UNITS[plan.interval];
  return unit ? `every ${plan.intervalCount} ${unit[1]}` : `every ${plan.intervalCount} × ${plan.interval}`;
}
