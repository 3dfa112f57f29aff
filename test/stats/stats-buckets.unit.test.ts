// Bucket, range and exact-rate math of the analytics endpoints (src/stats/buckets.ts).
// Expected values are written by hand from the rules in docs/analytics.md.
import { describe, expect, it } from 'vitest';
import { buildBuckets, countBuckets, parseDay, rangeIssues, rate, survive, wholeMonthsBetween } from '../../src/stats/buckets.js';

const d = (text: string) => parseDay(text)!;
const dates = (from: string, to: string, interval: 'day' | 'week' | 'month') =>
  buildBuckets(d(from), d(to), interval).map((b) => [b.date, b.end.toISOString().slice(0, 10)]);

describe('parseDay', () => {
  it('accepts real dates, including 29 February of a leap year', () => {
    expect(parseDay('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });
  it('refuses impossible dates and other shapes', () => {
    expect(parseDay('2023-02-29')).toBeUndefined();
    expect(parseDay('2024-04-31')).toBeUndefined();
    expect(parseDay('2024-13-01')).toBeUndefined();
    expect(parseDay('2024-1-01')).toBeUndefined();
    expect(parseDay('2024-01-01T00:00:00Z')).toBeUndefined();
  });
});

describe('buildBuckets', () => {
  it('cuts calendar months to the range, through a leap February', () => {
    expect(dates('2024-02-10', '2024-04-05', 'month')).toEqual([
      ['2024-02-10', '2024-03-01'],
      ['2024-03-01', '2024-04-01'],
      ['2024-04-01', '2024-04-06'],
    ]);
  });
  it('ends months on their last day (31, 30, 28)', () => {
    expect(dates('2023-01-31', '2023-03-01', 'month')).toEqual([
      ['2023-01-31', '2023-02-01'],
      ['2023-02-01', '2023-03-01'],
      ['2023-03-01', '2023-03-02'],
    ]);
  });
  it('starts weeks on Monday', () => {
    // 2024-02-28 is a Wednesday; 2024-03-04 a Monday.
    expect(dates('2024-02-28', '2024-03-12', 'week')).toEqual([
      ['2024-02-28', '2024-03-04'],
      ['2024-03-04', '2024-03-11'],
      ['2024-03-11', '2024-03-13'],
    ]);
  });
  it('makes one bucket per day across 29 February', () => {
    expect(dates('2024-02-28', '2024-03-01', 'day')).toEqual([
      ['2024-02-28', '2024-02-29'],
      ['2024-02-29', '2024-03-01'],
      ['2024-03-01', '2024-03-02'],
    ]);
  });
  it('one day, one bucket', () => {
    expect(dates('2024-12-31', '2024-12-31', 'month')).toEqual([['2024-12-31', '2025-01-01']]);
  });
  it('counts buckets like buildBuckets does', () => {
    for (const [from, to] of [
      ['2024-02-10', '2024-04-05'],
      ['2023-01-02', '2025-12-31'],
      ['2024-02-28', '2024-03-12'],
    ] as const) {
      for (const interval of ['day', 'week', 'month'] as const) {
        expect(countBuckets(d(from), d(to), interval)).toBe(buildBuckets(d(from), d(to), interval).length);
      }
    }
  });
});

describe('rangeIssues', () => {
  it('accepts a valid range', () => {
    expect(rangeIssues('2024-01-01', '2024-12-31', 'day')).toEqual([]);
  });
  it('refuses from after to', () => {
    expect(rangeIssues('2024-02-01', '2024-01-31', 'month')).toEqual([{ path: 'from', message: 'must not be after `to`' }]);
  });
  it('refuses impossible dates', () => {
    expect(rangeIssues('2023-02-29', '2023-03-01', 'day').map((i) => i.path)).toEqual(['from']);
  });
  it('allows 1096 days and refuses 1097', () => {
    expect(rangeIssues('2024-01-01', '2026-12-31', 'month')).toEqual([]); // 366 + 365 + 365 = 1096
    expect(rangeIssues('2024-01-01', '2027-01-01', 'month').map((i) => i.path)).toEqual(['to']);
  });
  it('refuses more than 366 buckets', () => {
    expect(rangeIssues('2024-01-01', '2024-12-31', 'day')).toEqual([]); // 366 days of a leap year
    expect(rangeIssues('2024-01-01', '2025-01-01', 'day').map((i) => i.path)).toEqual(['interval']);
  });
});

describe('rate', () => {
  it('rounds half up to four digits on integers', () => {
    expect(rate(1n, 3n)).toBe('0.3333');
    expect(rate(2n, 3n)).toBe('0.6667');
    expect(rate(1n, 8n)).toBe('0.1250');
    expect(rate(1n, 20000n)).toBe('0.0001'); // 0.00005 rounds up
    expect(rate(1n, 20001n)).toBe('0.0000');
    expect(rate(5n, 4n)).toBe('1.2500');
    expect(rate(0n, 7n)).toBe('0.0000');
  });
  it('gives 0.0000 for a zero denominator', () => {
    expect(rate(5n, 0n)).toBe('0.0000');
  });
  it('is exact for amounts beyond 2^53', () => {
    expect(rate(10n ** 30n + 1n, 2n * 10n ** 30n)).toBe('0.5000');
  });
});

describe('survival and months', () => {
  it('counts whole calendar months', () => {
    expect(wholeMonthsBetween(d('2024-01-31'), d('2024-02-29'))).toBe(0);
    expect(wholeMonthsBetween(d('2024-01-31'), d('2024-03-31'))).toBe(2);
    expect(wholeMonthsBetween(d('2024-03-01'), d('2024-06-01'))).toBe(3);
  });
  it('truncates amount x (keep/total)^power', () => {
    // 1000 x (9/10)^2 = 810; 999 x (2/3)^1 = 666; 100 x (1/3)^2 = 11.1 -> 11
    expect(survive(1000n, 9n, 10n, 2)).toBe(810n);
    expect(survive(999n, 2n, 3n, 1)).toBe(666n);
    expect(survive(100n, 1n, 3n, 2)).toBe(11n);
    expect(survive(100n, 0n, 0n, 3)).toBe(100n);
  });
});
