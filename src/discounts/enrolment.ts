// A promotion code given on the hosted enrolment page: checked against the plan and the wallet before
// the relay (nothing is redeemed yet), redeemed when the indexer projects the subscription.
import type { Db } from '../db/client.js';
import { InvalidRequestError } from '../errors.js';
import type { RecordEvent } from '../events/commit.js';
import { findPromotionCodeByCode } from '../promotion-codes/repo.js';
import { businessNow } from '../test-clocks/business-time.js';
import { ApiError } from '../errors.js';
import { basisPointsToPercent, discountedAmount, periodsCovered } from '../coupons/discount-amount.js';
import { checkRedeemable, redeemOntoSubscription } from './redeem.js';
import { takeEnrolmentPromotionCode } from './repo.js';

type Scope = { merchantId: string; livemode: boolean };

/** What the hosted offer shows for a promotion code: each discounted period's charge and how many there are. */
export type EnrolmentDiscountPreview = {
  promotionCode: string;
  couponName: string | null;
  percentOff: number | null;
  amountOff: string | null;
  /** What each discounted period pulls, in base units. */
  discountedAmount: string;
  /** Discounted periods; null: every one (forever). */
  periods: number | null;
};

/**
 * The hosted offer's preview of a promotion code for `plan`, before any wallet is connected: every rule
 * but the first-time one (the enrolment checks it with the wallet). Refusals are the enrolment's.
 */
export async function previewEnrolmentPromotionCode(
  db: Db,
  scope: Scope,
  plan: { id: string; amount: string },
  text: string,
): Promise<EnrolmentDiscountPreview> {
  const code = await findPromotionCodeByCode(db, scope, text);
  if (!code) throw new InvalidRequestError(`No such promotion code: ${text}.`, { param: 'promotionCode' });
  // Wall time: without a wallet no test clock applies (the enrolment checks again on the wallet's time).
  const now = new Date();
  const { coupon } = await checkRedeemable(
    db,
    scope,
    { planId: plan.id, amount: plan.amount },
    { promotionCodeId: code.id },
    now,
    'promotionCode',
  );
  return {
    promotionCode: code.code,
    couponName: coupon.name,
    percentOff: coupon.percentOffBp === null ? null : basisPointsToPercent(coupon.percentOffBp),
    amountOff: coupon.amountOff,
    discountedAmount: discountedAmount(BigInt(plan.amount), coupon).charged.toString(),
    periods: periodsCovered(coupon.duration, coupon.durationInPeriods),
  };
}

/** The id of the code `text` if a subscription of `plan` from `subscriber` could redeem it; else the envelope's error. */
export async function enrolmentPromotionCode(
  db: Db,
  scope: Scope,
  plan: { id: string; amount: string },
  subscriber: string,
  text: string,
): Promise<string> {
  const code = await findPromotionCodeByCode(db, scope, text);
  if (!code) throw new InvalidRequestError(`No such promotion code: ${text}.`, { param: 'promotionCode' });
  const now = await businessNow(db, { ...scope, subscriberAddress: subscriber });
  const target = { planId: plan.id, amount: plan.amount, subscriberAddress: subscriber };
  await checkRedeemable(db, scope, target, { promotionCodeId: code.id }, now, 'promotionCode');
  return code.id;
}

/**
 * In the transaction that projects a new subscription: redeems the code its subscriber gave at
 * enrolment, if any. A code that can no longer be redeemed (used up meanwhile) leaves the subscription
 * at the full amount; the refusal is returned for the log. The redemption runs in a savepoint so a
 * refusal undoes its counters and nothing else.
 */
export async function redeemEnrolmentPromotionCode(
  tx: Db,
  record: RecordEvent,
  scope: Scope,
  subscription: { id: string; planId: string; subscriberAddress: string },
): Promise<{ redeemed: string } | { refused: string } | undefined> {
  const codeId = await takeEnrolmentPromotionCode(tx, {
    ...scope,
    planId: subscription.planId,
    subscriberAddress: subscription.subscriberAddress,
  });
  if (!codeId) return undefined;
  const savepoint = (tx as { savepoint?: <T>(fn: (sp: Db) => Promise<T>) => Promise<T> }).savepoint;
  if (!savepoint) throw new Error('redeemEnrolmentPromotionCode must run inside a transaction');
  try {
    await savepoint.call(tx, (sp) => redeemOntoSubscription(sp, record, scope, subscription.id, { promotionCodeId: codeId }));
    return { redeemed: codeId };
  } catch (error) {
    if (error instanceof ApiError) return { refused: error.message };
    throw error;
  }
}
