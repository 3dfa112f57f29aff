// What a period charges under a coupon, in integer token base units (docs/decisions.md, "Coupons and
// promotion codes (issue 40)"). Pure: the charge activity, the apply operation and the tests use it.

export type CouponTerms = { percentOffBp: number | null; amountOff: string | null };

/** Basis points in one whole (100%). */
export const BP_PER_WHOLE = 10_000n;

/**
 * The discounted charge of a period whose full amount is `amount`:
 * - percent: floor(amount x (10000 - bp) / 10000), so the customer never pays more than the exact figure
 *   (the discount is the rest, rounded up);
 * - amount: amount - amountOff.
 * Never below 1 base unit (the contract refuses a zero charge) and never above `amount` (the authorised cap).
 */
export function discountedAmount(amount: bigint, terms: CouponTerms): { charged: bigint; discount: bigint } {
  let charged: bigint;
  if (terms.percentOffBp !== null) charged = (amount * (BP_PER_WHOLE - BigInt(terms.percentOffBp))) / BP_PER_WHOLE;
  else charged = amount - BigInt(terms.amountOff ?? '0');
  if (charged < 1n) charged = 1n;
  if (charged > amount) charged = amount;
  return { charged, discount: amount - charged };
}

/**
 * The discount a coupon gives a period on `planId`: null when the coupon is restricted to other plans.
 * A subscription moved to a plan outside the restriction keeps its discount attached, pays that plan in
 * full, and those periods do not count toward the discount's duration (only discounted periods do); back
 * on a covered plan, the discount applies again for what is left of it.
 */
export function discountOnPlan(
  planId: string,
  amount: bigint,
  terms: CouponTerms & { appliesToPlanIds: string[] | null },
): { charged: bigint; discount: bigint } | null {
  if (terms.appliesToPlanIds && !terms.appliesToPlanIds.includes(planId)) return null;
  return discountedAmount(amount, terms);
}

/** Periods a discount of this duration covers; null: every period (forever). */
export function periodsCovered(duration: 'once' | 'repeating' | 'forever', durationInPeriods: number | null): number | null {
  if (duration === 'once') return 1;
  if (duration === 'repeating') return durationInPeriods;
  return null;
}

/** A percent with at most two decimals (20, 12.5, 0.01) as basis points; undefined when it has more. */
export function percentToBasisPoints(percent: number): number | undefined {
  const bp = Math.round(percent * 100);
  return Math.abs(bp - percent * 100) < 1e-6 ? bp : undefined;
}

/** Basis points back to the API's percent (2000 -> 20, 1250 -> 12.5). */
export function basisPointsToPercent(bp: number): number {
  return bp / 100;
}
