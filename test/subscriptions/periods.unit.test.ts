import { describe, expect, it } from 'vitest';
import {
  chargeDueAt,
  chargeWindowForPeriod,
  addMonths,
  chargeWindowSeconds,
  contractPeriodStart,
  MEAN_MONTH_SECONDS,
  meanMonthDriftBoundSeconds,
  meanMonthDriftSeconds,
  onChainPeriodSeconds,
  onChainPeriodSecondsV2,
  periodEnd,
  periodStart,
  type PlanInterval,
} from '../../src/subscriptions/periods.js';

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

describe('SubscriptionManagerV2: mean month, drift bound and charge window', () => {
  const DAY = 86_400;

  it('signs the mean Gregorian month for month plans and the exact length for day and week plans', () => {
    expect(MEAN_MONTH_SECONDS * 4800).toBe(146_097 * DAY); // one 400-year cycle
    expect(onChainPeriodSecondsV2('monthly', 1)).toBe(2_629_746);
    expect(onChainPeriodSecondsV2('quarterly', 1)).toBe(3 * 2_629_746);
    expect(onChainPeriodSecondsV2('yearly', 1)).toBe(12 * 2_629_746);
    expect(onChainPeriodSecondsV2('monthly', 2)).toBe(2 * 2_629_746);
    expect(onChainPeriodSecondsV2('weekly', 2)).toBe(14 * DAY);
    expect(onChainPeriodSecondsV2('daily', 1)).toBe(DAY);
  });

  it('bounds the drift of a monthly plan at 4.391875 days either way, and signs period + D rounded up to an hour', () => {
    expect(meanMonthDriftSeconds(1)).toEqual({ earliest: -379_458, latest: 379_458 });
    expect(meanMonthDriftBoundSeconds(1)).toBe(379_458);
    expect(chargeWindowSeconds('monthly', 1)).toBe(3_009_600); // 2,629,746 + 379,458 = 3,009,204 -> next hour
    expect(chargeWindowSeconds('weekly', 1)).toBe(7 * DAY);
    expect(chargeWindowSeconds('daily', 3)).toBe(3 * DAY);
    for (const [interval, count] of [
      ['monthly', 1],
      ['monthly', 2],
      ['quarterly', 1],
      ['yearly', 1],
      ['monthly', 7],
    ] as const) {
      const window = chargeWindowSeconds(interval, count);
      expect(window % 3600).toBe(0);
      const period = onChainPeriodSecondsV2(interval, count);
      expect(window - period).toBeGreaterThanOrEqual(meanMonthDriftBoundSeconds(period / MEAN_MONTH_SECONDS));
      expect(window - period).toBeLessThan(5 * DAY); // a few days, never arrears of a whole period
    }
  });

  it('holds for every anchor day, brute force on the calendar itself (around 2000 and the non-leap 2100)', () => {
    for (const [interval, months] of [
      ['monthly', 1],
      ['quarterly', 3],
      ['yearly', 12],
    ] as const) {
      const { earliest, latest } = meanMonthDriftSeconds(months);
      const period = onChainPeriodSecondsV2(interval, 1);
      const window = chargeWindowSeconds(interval, 1);
      let seenMin = 0;
      let seenMax = 0;
      for (const [from, to] of [
        [Date.UTC(2000, 0, 1), Date.UTC(2002, 0, 1)],
        [Date.UTC(2099, 0, 1), Date.UTC(2101, 0, 1)],
      ] as const) {
        for (let t = from; t < to; t += DAY * 1000) {
          const anchor = new Date(t + 13 * 3_600_000); // the time of day does not matter
          for (let n = 1; n <= 30; n += 1) {
            const calendar = periodStart({ anchor, interval, intervalCount: 1 }, n).getTime() / 1000;
            const contract = contractPeriodStart(anchor, period, n).getTime() / 1000;
            const drift = calendar - contract;
            seenMin = Math.min(seenMin, drift);
            seenMax = Math.max(seenMax, drift);
            // The later-of rule: the charge goes out inside period n's window on the contract.
            const sentAt = Math.max(calendar, contract);
            expect(sentAt).toBeGreaterThanOrEqual(contract);
            expect(sentAt).toBeLessThan(contract + window);
          }
        }
      }
      expect(seenMin).toBeGreaterThanOrEqual(earliest);
      expect(seenMax).toBeLessThanOrEqual(latest);
      expect(seenMax - seenMin).toBeGreaterThan(DAY); // the scan above is not vacuous
    }
  });

  it('puts the contract start of period n at firstPeriodStart + n x period', () => {
    const first = new Date('2027-01-15T00:00:00.000Z');
    expect(contractPeriodStart(first, MEAN_MONTH_SECONDS, 12).toISOString()).toBe('2028-01-15T05:49:12.000Z');
  });

  it('names the window of a period a relay signs: month multiples get the drift, day multiples their period, others none', () => {
    expect(chargeWindowForPeriod(MEAN_MONTH_SECONDS)).toBe(chargeWindowSeconds('monthly', 1));
    expect(chargeWindowForPeriod(3 * MEAN_MONTH_SECONDS)).toBe(chargeWindowSeconds('monthly', 3));
    expect(chargeWindowForPeriod(12 * MEAN_MONTH_SECONDS)).toBe(chargeWindowSeconds('yearly', 1));
    expect(chargeWindowForPeriod(7 * 86_400)).toBe(chargeWindowSeconds('weekly', 1));
    expect(chargeWindowForPeriod(30 * 86_400)).toBe(30 * 86_400);
    expect(chargeWindowForPeriod(3600)).toBeNull();
    expect(chargeWindowForPeriod(0)).toBeNull();
  });

  it('charges at the later of the calendar start and the contract start', () => {
    const first = new Date('2027-01-31T00:00:00.000Z');
    const calendar = new Date('2027-02-28T00:00:00.000Z'); // the calendar clamps Feb 31 to the 28th
    expect(chargeDueAt(calendar, first, MEAN_MONTH_SECONDS, 1)).toEqual(contractPeriodStart(first, MEAN_MONTH_SECONDS, 1));
    const later = new Date('2027-03-05T00:00:00.000Z');
    expect(chargeDueAt(later, first, MEAN_MONTH_SECONDS, 1)).toEqual(later);
  });
});
