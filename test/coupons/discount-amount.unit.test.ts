// The discount formula (docs/decisions.md, "Coupons and promotion codes (issue 40)"): integer base
// units, the charge rounded down so the customer never pays more than the exact figure, never zero,
// never above the authorised amount.
import { describe, expect, it } from 'vitest';
import { discountOnPlan, discountedAmount, percentToBasisPoints, periodsCovered } from '../../src/coupons/discount-amount.js';

describe('discountedAmount', () => {
  it('takes a percent off and rounds the charge down', () => {
    expect(discountedAmount(10_000_000n, { percentOffBp: 2000, amountOff: null })).toEqual({ charged: 8_000_000n, discount: 2_000_000n });
    // 33.33% of 1 base unit short of a round figure: exact 6.667...; charged 6, discount 4 (rounded up).
    expect(discountedAmount(10n, { percentOffBp: 3333, amountOff: null })).toEqual({ charged: 6n, discount: 4n });
    expect(discountedAmount(999_999n, { percentOffBp: 1250, amountOff: null })).toEqual({ charged: 874_999n, discount: 125_000n });
  });

  it('takes an amount off, and never charges less than 1 base unit or more than the amount', () => {
    expect(discountedAmount(10_000_000n, { percentOffBp: null, amountOff: '2500000' })).toEqual({
      charged: 7_500_000n,
      discount: 2_500_000n,
    });
    expect(discountedAmount(5n, { percentOffBp: null, amountOff: '10' })).toEqual({ charged: 1n, discount: 4n });
    expect(discountedAmount(1n, { percentOffBp: 9999, amountOff: null })).toEqual({ charged: 1n, discount: 0n });
  });
});

describe('percentToBasisPoints and periodsCovered', () => {
  it('accepts at most two decimals', () => {
    expect(percentToBasisPoints(20)).toBe(2000);
    expect(percentToBasisPoints(12.5)).toBe(1250);
    expect(percentToBasisPoints(0.01)).toBe(1);
    expect(percentToBasisPoints(33.33)).toBe(3333);
    expect(percentToBasisPoints(12.345)).toBeUndefined();
  });

  it('covers one period once, N when repeating, all forever', () => {
    expect(periodsCovered('once', null)).toBe(1);
    expect(periodsCovered('repeating', 3)).toBe(3);
    expect(periodsCovered('forever', null)).toBeNull();
  });
});

describe('discountOnPlan', () => {
  const half = { percentOffBp: 5000, amountOff: null };
  it('applies a coupon restricted to plans only on those plans', () => {
    expect(discountOnPlan('plan_a', 10n, { ...half, appliesToPlanIds: ['plan_a'] })).toEqual({ charged: 5n, discount: 5n });
    expect(discountOnPlan('plan_b', 10n, { ...half, appliesToPlanIds: ['plan_a'] })).toBeNull();
    expect(discountOnPlan('plan_b', 10n, { ...half, appliesToPlanIds: null })).toEqual({ charged: 5n, discount: 5n });
  });
});
