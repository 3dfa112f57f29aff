// A coupon's terms in words, shared by the coupons page and a subscription's discount:
// "20% off, 3 periods", "5.00 USDC off, once", "10% off, forever".
import { formatAmount } from './format.ts';
import type { Coupon } from './types.ts';

type Terms = Pick<Coupon, 'percentOff' | 'amountOff' | 'duration' | 'durationInPeriods'> & { currency?: string };

export function describeCoupon(coupon: Terms): string {
  const off = coupon.percentOff !== null ? `${coupon.percentOff}% off` : `${formatAmount(coupon.amountOff, coupon.currency ?? 'USDC')} off`;
  const periods = coupon.durationInPeriods ?? 0;
  const duration =
    coupon.duration === 'once' ? 'once' : coupon.duration === 'forever' ? 'forever' : `${periods} period${periods === 1 ? '' : 's'}`;
  return `${off}, ${duration}`;
}
