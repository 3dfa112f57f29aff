// The one countdown formatter (src/time/duration-text.ts): days and hours for long waits, minutes and
// seconds for short ones, singular and plural, and the boundaries between them.
import { describe, expect, it } from 'vitest';
import { expiryCountdown, formatDuration } from '../../src/time/duration-text.js';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [999, '0 s'],
    [42 * S, '42 s'],
    [MIN, '1 min'],
    [14 * MIN + 3 * S, '14 min 3 s'],
    [59 * MIN + 59 * S + 999, '59 min 59 s'],
    [H, '1 hour'],
    [H + 30 * S, '1 hour'],
    [3 * H + 5 * MIN, '3 hours 5 min'],
    [23 * H + 59 * MIN + 59 * S, '23 hours 59 min'],
    [D, '1 day'],
    [D + H, '1 day 1 hour'],
    [2 * D + 5 * H + 59 * MIN, '2 days 5 hours'],
    [379 * D + H, '379 days 1 hour'],
    // 545749 minutes: what a minutes-only countdown once showed.
    [545_749 * MIN + 48 * S, '378 days 23 hours'],
    [-5 * S, '0 s'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('expiryCountdown', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('counts down to the expiry, then says Expired', () => {
    expect(expiryCountdown('2027-01-15T01:00:00Z', now)).toBe('Expires in 379 days 1 hour');
    expect(expiryCountdown('2026-01-01T00:14:03Z', now)).toBe('Expires in 14 min 3 s');
    expect(expiryCountdown('2026-01-01T00:00:00.500Z', now)).toBe('Expired');
    expect(expiryCountdown('2025-12-31T00:00:00Z', now)).toBe('Expired');
  });
});
