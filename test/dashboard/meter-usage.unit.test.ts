// The meters page's usage chart arithmetic: the UTC range a pair of dates stands for, and the empty windows filled.
import { describe, expect, it } from 'vitest';
import { lastDays, MAX_FILLED_WINDOWS, usageRange, usageSeries } from '../../dashboard/src/meterUsage.js';
import type { MeterSummary } from '../../dashboard/src/types.js';

const summary = (startTime: string, endTime: string, aggregatedValue: string): MeterSummary => ({
  object: 'billing.meter_event_summary',
  meterId: 'mtr_1',
  customerId: 'cus_1',
  startTime,
  endTime,
  aggregatedValue,
});

describe('usage chart', () => {
  it('takes both dates as whole UTC days, the second included', () => {
    expect(usageRange('2026-11-01', '2026-11-30')).toEqual({
      startTime: '2026-11-01T00:00:00.000Z',
      endTime: '2026-12-01T00:00:00.000Z',
    });
    expect(lastDays(30, new Date('2026-11-27T23:59:00Z'))).toEqual({ from: '2026-10-29', to: '2026-11-27' });
  });

  it('fills the windows the API left out with "0", keeping its exact values', () => {
    const range = usageRange('2026-11-01', '2026-11-03');
    const points = usageSeries([summary('2026-11-02T00:00:00.000Z', '2026-11-03T00:00:00.000Z', '7.500000000001')], range, 'day');
    expect(points.map((p) => [p.label, p.value])).toEqual([
      ['2026-11-01', '0'],
      ['2026-11-02', '7.500000000001'],
      ['2026-11-03', '0'],
    ]);
    const hours = usageSeries(
      [summary('2026-11-01T01:00:00.000Z', '2026-11-01T02:00:00.000Z', '6.5')],
      usageRange('2026-11-01', '2026-11-01'),
      'hour',
    );
    expect(hours).toHaveLength(24);
    expect(hours[1]).toMatchObject({ label: '2026-11-01 01:00', value: '6.5', chartValue: 6.5 });
  });

  it('shows only the windows with usage when filling would draw too many bars', () => {
    const range = usageRange('2026-01-01', '2026-12-31');
    expect((Date.parse(range.endTime) - Date.parse(range.startTime)) / 3_600_000).toBeGreaterThan(MAX_FILLED_WINDOWS);
    const points = usageSeries([summary('2026-03-01T05:00:00.000Z', '2026-03-01T06:00:00.000Z', '3')], range, 'hour');
    expect(points.map((p) => p.label)).toEqual(['2026-03-01 05:00']);
  });
});
