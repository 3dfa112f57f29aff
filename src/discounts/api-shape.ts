// The API shape of a subscription's open discount, from the row the subscription query carries.
import { basisPointsToPercent, periodsCovered } from '../coupons/discount-amount.js';
import { periodStart } from '../subscriptions/periods.js';
import type { OpenDiscount } from '../subscriptions/repo.js';
import type { Discount } from './schemas.js';

/** Charged periods the open discount still covers; null: every one (forever). */
export function periodsRemaining(d: Pick<OpenDiscount, 'duration' | 'durationInPeriods' | 'periodsApplied'>): number | null {
  const covered = periodsCovered(d.duration, d.durationInPeriods);
  return covered === null ? null : Math.max(covered - d.periodsApplied, 0);
}

export function renderDiscount(d: OpenDiscount, sub: { firstPeriodStart: Date; currentPeriodIndex: number | null }): Discount {
  const remaining = periodsRemaining(d);
  const nextIndex = (sub.currentPeriodIndex ?? -1) + 1;
  const schedule = { anchor: sub.firstPeriodStart, interval: d.interval, intervalCount: d.intervalCount };
  return {
    id: d.id,
    object: 'discount',
    coupon: {
      id: d.couponId,
      name: d.name,
      percentOff: d.percentOffBp === null ? null : basisPointsToPercent(d.percentOffBp),
      amountOff: d.amountOff,
      duration: d.duration,
      durationInPeriods: d.durationInPeriods,
    },
    promotionCode: d.promotionCodeId,
    start: new Date(d.startedAt).toISOString(),
    end: remaining === null ? null : periodStart(schedule, nextIndex + remaining).toISOString(),
    periodsRemaining: remaining,
  };
}
