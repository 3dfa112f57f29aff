// The dunning grace clamped to a v2 period's charge window (src/subscriptions/grace-clamp.ts).
import { describe, expect, it } from 'vitest';
import { chargeWindowClosesAt, clampGraceToWindow, LAST_ATTEMPT_MARGIN_MS } from '../../src/subscriptions/grace-clamp.js';
import { chargeWindowSeconds, MEAN_MONTH_SECONDS } from '../../src/subscriptions/periods.js';

const first = new Date('2027-01-15T00:00:00.000Z');
const HOUR = 3_600_000;

describe('clampGraceToWindow', () => {
  it('leaves a v1 subscription (no window) its merchant grace', () => {
    const hours = clampGraceToWindow({
      gracePeriodHours: 8760,
      firstPeriodStart: first,
      periodSeconds: 28 * 86_400,
      chargeWindowSeconds: null,
      periodIndex: 3,
      now: new Date('2027-04-20T00:00:00Z'),
    });
    expect(hours).toBe(8760);
  });

  it('keeps a grace that ends inside the window', () => {
    const window = chargeWindowSeconds('monthly', 1);
    const hours = clampGraceToWindow({
      gracePeriodHours: 72,
      firstPeriodStart: first,
      periodSeconds: MEAN_MONTH_SECONDS,
      chargeWindowSeconds: window,
      periodIndex: 2,
      now: new Date(first.getTime() + 2 * MEAN_MONTH_SECONDS * 1000 + HOUR),
    });
    expect(hours).toBe(72);
  });

  it('ends a longer grace a margin before the window closes, and gives none once it has', () => {
    const window = 86_400; // a daily plan: the window is the day
    const now = new Date(first.getTime() + 5 * 86_400_000 + 6 * HOUR); // 6 h into period 5
    const w = { gracePeriodHours: 72, firstPeriodStart: first, periodSeconds: 86_400, chargeWindowSeconds: window, periodIndex: 5, now };
    const hours = clampGraceToWindow(w);
    expect(hours * HOUR).toBe(18 * HOUR - LAST_ATTEMPT_MARGIN_MS);
    // The last attempt (at now + grace) still lies before the contract's ChargeWindowClosed.
    expect(now.getTime() + hours * HOUR).toBeLessThan(chargeWindowClosesAt(w, window).getTime());
    expect(clampGraceToWindow({ ...w, now: new Date(chargeWindowClosesAt(w, window).getTime() - 60_000) })).toBe(0);
  });
});
