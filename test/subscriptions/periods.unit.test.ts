import { describe, expect, it } from 'vitest';
import { addMonths, onChainPeriodSeconds, periodEnd, periodStart, type PlanInterval } from '../../src/subscriptions/periods.js';

const d = (iso: string) => new Date(iso);
const starts = (anchor: string, interval: PlanInterval, intervalCount: number, n: number) =>
  Array.from({ length: n }, (_, i) => periodStart({ anchor: d(anchor), interval, intervalCount }, i).toISOString());

describe('addMonths', () => {
  it('keeps the day when it exists and clamps to month end when it does not', () => {
    expect(addMonths(d('2026-01-15T10:20:30.000Z'), 1).toISOString()).toBe('2026-02-15T10:20:30.000Z');
    expect(addMonths(d('2027-01-31T00:00:00.000Z'), 1).toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(addMonths(d('2028-01-31T00:00:00.000Z'), 1).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addMonths(d('2026-03-31T12:00:00.000Z'), 1).toISOString()).toBe('2026-04-30T12:00:00.000Z');
  });

  it('crosses year boundaries forwards and backwards', () => {
    expect(addMonths(d('2026-11-30T00:00:00.000Z'), 3).toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(addMonths(d('2026-01-31T00:00:00.000Z'), -2).toISOString()).toBe('2025-11-30T00:00:00.000Z');
    expect(addMonths(d('2026-06-15T00:00:00.000Z'), 0).toISOString()).toBe('2026-06-15T00:00:00.000Z');
  });

  it('refuses a fractional month count', () => {
    expect(() => addMonths(d('2026-01-01T00:00:00Z'), 1.5)).toThrow(RangeError);
  });
});

describe('periodStart', () => {
  it('monthly from Jan 31 goes Feb 28, Mar 31, Apr 30 (computed from the anchor, not chained)', () => {
    expect(starts('2027-01-31T09:00:00.000Z', 'monthly', 1, 5)).toEqual([
      '2027-01-31T09:00:00.000Z',
      '2027-02-28T09:00:00.000Z',
      '2027-03-31T09:00:00.000Z',
      '2027-04-30T09:00:00.000Z',
      '2027-05-31T09:00:00.000Z',
    ]);
  });

  it('monthly from Jan 31 in a leap year hits Feb 29', () => {
    expect(starts('2028-01-31T00:00:00.000Z', 'monthly', 1, 3)).toEqual([
      '2028-01-31T00:00:00.000Z',
      '2028-02-29T00:00:00.000Z',
      '2028-03-31T00:00:00.000Z',
    ]);
  });

  it('yearly from Feb 29 clamps to Feb 28 and returns to Feb 29 in the next leap year', () => {
    expect(starts('2028-02-29T00:00:00.000Z', 'yearly', 1, 5)).toEqual([
      '2028-02-29T00:00:00.000Z',
      '2029-02-28T00:00:00.000Z',
      '2030-02-28T00:00:00.000Z',
      '2031-02-28T00:00:00.000Z',
      '2032-02-29T00:00:00.000Z',
    ]);
  });

  it('quarterly keeps the anchor day and clamps', () => {
    expect(starts('2026-11-30T00:00:00.000Z', 'quarterly', 1, 4)).toEqual([
      '2026-11-30T00:00:00.000Z',
      '2027-02-28T00:00:00.000Z',
      '2027-05-30T00:00:00.000Z',
      '2027-08-30T00:00:00.000Z',
    ]);
  });

  it('intervalCount multiplies every unit', () => {
    expect(starts('2026-01-31T00:00:00.000Z', 'monthly', 2, 3)).toEqual([
      '2026-01-31T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
      '2026-05-31T00:00:00.000Z',
    ]);
    expect(starts('2026-01-01T00:00:00.000Z', 'weekly', 2, 3)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-15T00:00:00.000Z',
      '2026-01-29T00:00:00.000Z',
    ]);
    expect(starts('2026-01-01T00:00:00.000Z', 'yearly', 2, 2)).toEqual(['2026-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z']);
  });

  it('daily and weekly are exact 24 h multiples in UTC, across month ends and DST dates', () => {
    expect(starts('2026-03-28T23:30:00.000Z', 'daily', 1, 3)).toEqual([
      '2026-03-28T23:30:00.000Z',
      '2026-03-29T23:30:00.000Z',
      '2026-03-30T23:30:00.000Z',
    ]);
    expect(periodStart({ anchor: d('2026-12-31T00:00:00Z'), interval: 'weekly', intervalCount: 1 }, 1).toISOString()).toBe(
      '2027-01-07T00:00:00.000Z',
    );
    expect(periodStart({ anchor: d('2026-02-27T00:00:00Z'), interval: 'daily', intervalCount: 3 }, 1).toISOString()).toBe(
      '2026-03-02T00:00:00.000Z',
    );
  });

  it('24 monthly periods from the 31st stay on month ends and never drift', () => {
    const all = starts('2026-12-31T00:00:00.000Z', 'monthly', 1, 25);
    for (const iso of all) {
      const date = d(iso);
      const next = new Date(date.getTime() + 86_400_000);
      expect(next.getUTCDate()).toBe(1); // every start is the last day of its month
    }
    expect(all[24]).toBe('2028-12-31T00:00:00.000Z');
  });

  it('periodEnd is the next period start', () => {
    const s = { anchor: d('2027-01-31T00:00:00Z'), interval: 'monthly' as const, intervalCount: 1 };
    expect(periodEnd(s, 0).toISOString()).toBe('2027-02-28T00:00:00.000Z');
  });

  it('refuses bad input', () => {
    const s = { anchor: d('2026-01-01T00:00:00Z'), interval: 'monthly' as const, intervalCount: 1 };
    expect(() => periodStart(s, -1)).toThrow(RangeError);
    expect(() => periodStart(s, 0.5)).toThrow(RangeError);
    expect(() => periodStart({ ...s, intervalCount: 0 }, 1)).toThrow(RangeError);
    expect(() => periodStart({ ...s, anchor: new Date('nope') }, 1)).toThrow(RangeError);
  });
});

describe('onChainPeriodSeconds', () => {
  it('is exact for daily and weekly and the shortest calendar gap for month-based intervals', () => {
    expect(onChainPeriodSeconds('daily', 1)).toBe(86_400);
    expect(onChainPeriodSeconds('weekly', 2)).toBe(14 * 86_400);
    expect(onChainPeriodSeconds('monthly', 1)).toBe(28 * 86_400);
    expect(onChainPeriodSeconds('monthly', 2)).toBe(59 * 86_400);
    expect(onChainPeriodSeconds('quarterly', 1)).toBe(89 * 86_400);
    expect(onChainPeriodSeconds('yearly', 1)).toBe(365 * 86_400);
  });

  it('never lets a calendar period start before the contract allows it (every anchor day over 8 years, 40 periods)', () => {
    const cases: [PlanInterval, number][] = [
      ['monthly', 1],
      ['monthly', 2],
      ['quarterly', 1],
      ['yearly', 1],
    ];
    for (const [interval, intervalCount] of cases) {
      const periodMs = onChainPeriodSeconds(interval, intervalCount) * 1000;
      for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2032, 0, 1); t += 86_400_000 * 3) {
        const schedule = { anchor: new Date(t), interval, intervalCount };
        for (let n = 1; n <= 40; n += 13) {
          expect(periodStart(schedule, n).getTime()).toBeGreaterThanOrEqual(t + n * periodMs);
        }
      }
    }
  });
});
