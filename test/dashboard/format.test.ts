// The dashboard's amount and rate formatting: integer base-unit strings in,
// exact text out (string and bigint arithmetic, no floats).
import { describe, expect, it } from 'vitest';
import { describeInterval, formatAmount, formatRate, parseAmount } from '../../dashboard/src/format.js';

describe('dashboard amounts', () => {
  it('formats base units (USDC, 6 decimals) exactly, with at least two decimals and grouping', () => {
    expect(formatAmount('0')).toBe('0.00 USDC');
    expect(formatAmount('1')).toBe('0.000001 USDC');
    expect(formatAmount('12500000')).toBe('12.50 USDC');
    expect(formatAmount('300750001')).toBe('300.750001 USDC');
    expect(formatAmount('1234567890000000')).toBe('1,234,567,890.00 USDC');
    expect(formatAmount('9007199254740993000001')).toBe('9,007,199,254,740,993.000001 USDC'); // beyond 2^53
    expect(formatAmount('-2500000')).toBe('-2.50 USDC');
    expect(formatAmount(null)).toBe('—');
    expect(formatAmount('1.5')).toBe('—');
  });

  it('parses typed amounts into base units, refusing more than 6 decimals', () => {
    expect(parseAmount('12.5')).toBe('12500000');
    expect(parseAmount('0.000001')).toBe('1');
    expect(parseAmount('1000')).toBe('1000000000');
    // One rule with src/money/parse.ts: a comma is ambiguous ("9,99" once made a 999.00 USDC plan).
    expect(parseAmount('1,000')).toBeUndefined();
    expect(parseAmount('9,99')).toBeUndefined();
    expect(parseAmount('0')).toBe('0');
    expect(parseAmount('0.1234567')).toBeUndefined();
    expect(parseAmount('-1')).toBeUndefined();
    expect(parseAmount('abc')).toBeUndefined();
    expect(parseAmount('0.1') && parseAmount('0.2') && (BigInt(parseAmount('0.1')!) + BigInt(parseAmount('0.2')!)).toString()).toBe(
      '300000',
    );
  });

  it('formats 4-decimal rate strings as percentages', () => {
    expect(formatRate('0.5455')).toBe('54.55 %');
    expect(formatRate('1.0000')).toBe('100.00 %');
    expect(formatRate('0.0000')).toBe('0.00 %');
    expect(formatRate('0.0005')).toBe('0.05 %');
  });
});

describe('plan intervals', () => {
  it('says the period in words, never "every 2 × quarterly"', () => {
    expect(describeInterval({ interval: 'monthly', intervalCount: 1 })).toBe('monthly');
    expect(describeInterval({ interval: 'quarterly', intervalCount: 2 })).toBe('every 2 quarters');
    expect(describeInterval({ interval: 'daily', intervalCount: 10 })).toBe('every 10 days');
    expect(describeInterval({ interval: 'yearly', intervalCount: 3 })).toBe('every 3 years');
  });
});
