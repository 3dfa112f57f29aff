// What the portal shows as a subscription's next charge, and the link of a change waiting for the customer.
import { discountOnPlan } from '../coupons/discount-amount.js';
import type { PlanChange } from '../subscription-plan-changes/schemas.js';
import type { SubscriptionRow } from '../subscriptions/repo.js';

const CHARGING = ['trialing', 'active', 'at_risk'];

/**
 * The next period's charge as it stands: the price (a downgrade scheduled for then included), with the open
 * discount taken off, at most the authorised amount; null when nothing more will be charged. A proration of an
 * upgrade rides on that charge too (src/subscription-plan-changes), so an upgraded period can pull more.
 */
export function nextCharge(row: SubscriptionRow): { amount: string; at: string } | null {
  if (!CHARGING.includes(row.status) || row.cancelAtPeriodEnd || !row.nextChargeAt) return null;
  const scheduled = row.pendingPlanChange?.status === 'scheduled' ? row.pendingPlanChange : null;
  const price = BigInt(scheduled?.toAmount ?? row.priceAmount ?? row.amount);
  // The charge's own rule: a coupon restricted to other plans takes nothing off.
  const discounted = row.discount ? discountOnPlan(scheduled?.toPlanId ?? row.planId, price, row.discount) : null;
  const charged = discounted ? discounted.charged : price;
  const cap = BigInt(row.amount);
  return { amount: (charged > cap ? cap : charged).toString(), at: row.nextChargeAt.toISOString() };
}

/** The hosted page where the customer authorises a change above their authorised amount (its `hostedUrl`). */
export function planChangeLink(change: PlanChange | null): string | null {
  return change?.status === 'requires_customer_action' ? change.hostedUrl : null;
}
