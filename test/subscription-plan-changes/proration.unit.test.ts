// The proration formula and the decision of what a plan change does (issue 40, item 1).
import { describe, expect, it } from 'vitest';
import { chargedWithProrations, prorationAmount } from '../../src/subscription-plan-changes/proration.js';
import { decidePlanChange, periodInProgress } from '../../src/subscription-plan-changes/decide.js';
import type { Schedule } from '../../src/subscriptions/periods.js';

const start = new Date('2027-03-01T00:00:00Z');
const end = new Date('2027-04-01T00:00:00Z'); // 31 days = 2,678,400 s

describe('proration', () => {
  it('is floor((new - old) * remainingSeconds / periodSeconds) in base units', () => {
    // 10 days left of 31: 15 USDC * 864000 / 2678400 = 4.838709677... USDC, rounded down to the base unit.
    const at = new Date('2027-03-22T00:00:00Z');
    expect(prorationAmount({ fromAmount: 10_000_000n, toAmount: 25_000_000n, periodStart: start, periodEnd: end, at })).toBe(4_838_709n);
    // Sub-second parts of the time are dropped (whole seconds), never rounded up.
    const atMs = new Date('2027-03-22T00:00:00.999Z');
    expect(prorationAmount({ fromAmount: 10_000_000n, toAmount: 25_000_000n, periodStart: start, periodEnd: end, at: atMs })).toBe(
      (15_000_000n * 863_999n) / 2_678_400n,
    );
  });

  it('is zero for a downgrade, at the period end, and whole at its start', () => {
    expect(prorationAmount({ fromAmount: 25n, toAmount: 10n, periodStart: start, periodEnd: end, at: start })).toBe(0n);
    expect(prorationAmount({ fromAmount: 10n, toAmount: 25n, periodStart: start, periodEnd: end, at: end })).toBe(0n);
    expect(prorationAmount({ fromAmount: 10n, toAmount: 25n, periodStart: start, periodEnd: end, at: start })).toBe(15n);
  });

  it('a charge with prorations never exceeds the cap', () => {
    expect(chargedWithProrations(25n, 4n, 40n)).toBe(29n);
    expect(chargedWithProrations(25n, 30n, 40n)).toBe(40n);
  });
});

describe('what a plan change does', () => {
  const schedule: Schedule = { anchor: new Date('2027-01-01T00:00:00Z'), interval: 'monthly', intervalCount: 1 };
  const base = { schedule, periods: 0, cap: 40n, currentAmount: 10n, prorate: true, currentPeriodIndex: 1 };

  it('finds the period in progress from any starting index', () => {
    const now = new Date('2027-03-22T00:00:00Z');
    expect(periodInProgress(schedule, 0, now)).toBe(2);
    expect(periodInProgress(schedule, 7, now)).toBe(2);
  });

  it('an upgrade within the cap applies at once with its proration, limited to the room under the cap', () => {
    const now = new Date('2027-03-22T00:00:00Z');
    expect(decidePlanChange({ ...base, currentAmount: 10_000_000n, cap: 40_000_000n, newAmount: 25_000_000n, now })).toEqual({
      kind: 'applied',
      periodIndex: 2,
      effectiveAt: now,
      prorationAmount: 4_838_709n,
    });
    // 38 of a 40 cap leaves room for 2 of the proration.
    expect(decidePlanChange({ ...base, currentAmount: 10_000_000n, cap: 40_000_000n, newAmount: 38_000_000n, now })).toMatchObject({
      prorationAmount: 2_000_000n,
    });
    expect(decidePlanChange({ ...base, prorate: false, newAmount: 25n, now })).toMatchObject({ kind: 'applied', prorationAmount: 0n });
  });

  it('a downgrade is scheduled for the next period; none in the last authorised period', () => {
    const now = new Date('2027-03-22T00:00:00Z');
    expect(decidePlanChange({ ...base, currentAmount: 25n, newAmount: 10n, now })).toEqual({
      kind: 'scheduled',
      periodIndex: 2,
      effectivePeriodIndex: 3,
      effectiveAt: new Date('2027-04-01T00:00:00Z'),
    });
    expect(decidePlanChange({ ...base, periods: 3, currentAmount: 25n, newAmount: 10n, now })).toEqual({ kind: 'no_next_period' });
  });

  it('above the cap waits for the customer; in a trial any change applies at once without proration', () => {
    const now = new Date('2027-03-22T00:00:00Z');
    expect(decidePlanChange({ ...base, newAmount: 41n, now })).toEqual({ kind: 'requires_customer_action', periodIndex: 2 });
    const inTrial = new Date('2026-12-20T00:00:00Z');
    expect(decidePlanChange({ ...base, currentPeriodIndex: null, newAmount: 30n, now: inTrial })).toEqual({
      kind: 'applied',
      periodIndex: null,
      effectiveAt: inTrial,
      prorationAmount: 0n,
    });
  });
});
