// Redeeming a coupon (directly or through a promotion code) onto a subscription, inside the caller's
// transaction: every rule checked, then the counters moved by conditional UPDATEs (so concurrent
// redemptions of a code's last use cannot both pass), the open discount replaced, the discounted
// amount noted for MRR, and the events recorded. Used by the merchant's apply operation and by the
// enrolment projection (a code given on the hosted page).
import type { Db } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import type { RecordEvent } from '../events/commit.js';
import { newId } from '../ids.js';
import * as couponRepo from '../coupons/repo.js';
import { discountedAmount } from '../coupons/discount-amount.js';
import * as codeRepo from '../promotion-codes/repo.js';
import { renderSubscription } from '../subscriptions/api-shape.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import { businessNow } from '../test-clocks/business-time.js';
import { renderDiscount } from './api-shape.js';
import * as repo from './repo.js';

export type DiscountSource = { couponId: string } | { promotionCodeId: string };

/** Why a redemption was refused: the envelope's param and message. */
const refuse = (param: string, message: string) => new InvalidRequestError(message, { param });

/**
 * Every rule a redemption must pass, read without changing anything (the counters are checked again,
 * atomically, when they move): the code's active flag, expiry and first-time rule; the coupon's
 * existence, redeemBy, plans, and an amount off that leaves something to charge. Throws the envelope's
 * error naming `param`. Without a subscriber (the hosted page's preview, before a wallet is connected)
 * the first-time rule is left to the enrolment, which names the wallet.
 */
export async function checkRedeemable(
  db: Db,
  scope: { merchantId: string; livemode: boolean },
  target: { planId: string; amount: string; subscriberAddress?: string },
  source: DiscountSource,
  now: Date,
  param: string,
): Promise<{ coupon: couponRepo.CouponRow; code: codeRepo.PromotionCodeRow | undefined }> {
  let code: codeRepo.PromotionCodeRow | undefined;
  if ('promotionCodeId' in source) {
    code = await codeRepo.findPromotionCode(db, scope, source.promotionCodeId);
    if (!code) throw refuse(param, `No such promotion code: ${source.promotionCodeId}.`);
    if (!code.active) throw refuse(param, `The promotion code ${code.code} is not active.`);
    if (code.expiresAt && code.expiresAt <= now) throw refuse(param, `The promotion code ${code.code} has expired.`);
    if (code.maxRedemptions !== null && code.timesRedeemed >= code.maxRedemptions) {
      throw refuse(param, `The promotion code ${code.code} has been redeemed the maximum number of times.`);
    }
    if (
      code.firstTimeTransaction &&
      target.subscriberAddress !== undefined &&
      !(await codeRepo.isFirstTimeWallet(db, scope, target.subscriberAddress))
    ) {
      throw refuse(param, `The promotion code ${code.code} is for first-time customers only.`);
    }
  }
  const couponId = 'couponId' in source ? source.couponId : code!.couponId;
  const coupon = await couponRepo.findCoupon(db, scope, couponId);
  if (!coupon) throw refuse(param, `No such coupon: ${couponId}.`);
  if (coupon.redeemBy && coupon.redeemBy <= now)
    throw refuse(param, `The coupon ${coupon.id} can no longer be redeemed (redeemBy has passed).`);
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    throw refuse(param, `The coupon ${coupon.id} has been redeemed the maximum number of times.`);
  }
  if (coupon.appliesToPlanIds && !coupon.appliesToPlanIds.includes(target.planId)) {
    throw refuse(param, `The coupon ${coupon.id} does not apply to the plan ${target.planId}.`);
  }
  if (coupon.amountOff !== null && BigInt(coupon.amountOff) >= BigInt(target.amount)) {
    throw refuse(
      param,
      `The coupon ${coupon.id} takes off ${coupon.amountOff}, which leaves nothing of the ${target.amount} charged per period.`,
    );
  }
  return { coupon, code };
}

/**
 * Applies the coupon of `source` to subscription `subscriptionId` (locked here). Throws the envelope's
 * error when a rule refuses it (nothing changes); returns the subscription as it now is.
 */
export async function redeemOntoSubscription(
  tx: Db,
  record: RecordEvent,
  scope: { merchantId: string; livemode: boolean },
  subscriptionId: string,
  source: DiscountSource,
): Promise<subscriptionRepo.SubscriptionRow> {
  // The subscription first: every writer of a subscription locks it before anything else.
  const sub = await subscriptionRepo.findSubscription(tx, scope, subscriptionId, { forUpdate: true });
  if (!sub) throw new NotFoundError(`No such subscription: ${subscriptionId}.`, { param: 'id' });
  if (subscriptionRepo.TERMINAL_STATUSES.includes(sub.status)) {
    throw new InvalidStateError(`The subscription is ${sub.status}: nothing is charged any more, so no discount applies.`);
  }
  const now = await businessNow(tx, sub);
  const param = 'couponId' in source ? 'coupon' : 'promotionCode';
  const { coupon, code } = await checkRedeemable(tx, scope, sub, source, now, param);

  // The counters: a conditional UPDATE each, so the last redemption goes to exactly one caller.
  if (code && !(await codeRepo.redeemPromotionCode(tx, code.id, now))) {
    throw refuse(param, `The promotion code ${code.code} has been redeemed the maximum number of times.`);
  }
  if (!(await couponRepo.redeemCoupon(tx, coupon.id, now))) {
    throw refuse(param, `The coupon ${coupon.id} has been redeemed the maximum number of times.`);
  }

  const before = sub.discount ? renderDiscount(sub.discount, sub) : null;
  if (await repo.endOpenDiscount(tx, sub.id, 'replaced', now)) {
    await record({ ...scope, type: 'customer.discount.deleted', data: { object: before, subscription: renderSubscription(sub) } });
  }
  await repo.insertDiscount(tx, {
    id: newId('discount'),
    ...scope,
    subscriptionId: sub.id,
    couponId: coupon.id,
    promotionCodeId: code?.id ?? null,
    startedAt: now,
  });
  // On the plan's current amount (a plan change may have moved it under the authorised `amount`).
  await repo.setDiscountedAmount(tx, sub.id, discountedAmount(BigInt(sub.priceAmount ?? sub.amount), coupon).charged.toString());
  const updated = (await subscriptionRepo.findSubscriptionById(tx, sub.id))!;
  const subscription = renderSubscription(updated);
  await record({ ...scope, type: 'customer.discount.created', data: { object: subscription.discount, subscription } });
  return updated;
}

/** Ends the open discount (`removed`); session_invalid_state when there is none. */
export async function removeFromSubscription(
  tx: Db,
  record: RecordEvent,
  scope: { merchantId: string; livemode: boolean },
  sub: subscriptionRepo.SubscriptionRow,
): Promise<subscriptionRepo.SubscriptionRow> {
  if (!sub.discount) throw new InvalidStateError('The subscription has no discount to remove.');
  const before = renderDiscount(sub.discount, sub);
  await repo.endOpenDiscount(tx, sub.id, 'removed', await businessNow(tx, sub));
  await repo.setDiscountedAmount(tx, sub.id, null);
  const updated = (await subscriptionRepo.findSubscriptionById(tx, sub.id))!;
  await record({ ...scope, type: 'customer.discount.deleted', data: { object: before, subscription: renderSubscription(updated) } });
  return updated;
}
