// SQL for subscription discounts: at most one open (ended_at null) per subscription.
import type { Db } from '../db/client.js';

export type DiscountEndReason = 'removed' | 'replaced' | 'used_up';

export async function insertDiscount(
  db: Db,
  d: {
    id: string;
    merchantId: string;
    livemode: boolean;
    subscriptionId: string;
    couponId: string;
    promotionCodeId: string | null;
    startedAt: Date;
  },
): Promise<void> {
  await db`
    insert into subscription_discounts (id, merchant_id, livemode, subscription_id, coupon_id, promotion_code_id, started_at)
    values (${d.id}, ${d.merchantId}, ${d.livemode}, ${d.subscriptionId}, ${d.couponId}, ${d.promotionCodeId}, ${d.startedAt})`;
}

/** Ends the open discount of a subscription; the ended discount's id, undefined when none was open. */
export async function endOpenDiscount(db: Db, subscriptionId: string, reason: DiscountEndReason, at: Date): Promise<string | undefined> {
  const [row] = await db<{ id: string }[]>`
    update subscription_discounts set ended_at = ${at}, end_reason = ${reason}
    where subscription_id = ${subscriptionId} and ended_at is null
    returning id`;
  return row?.id;
}

/**
 * One more period charged under discount `id`: counted once per charge (the caller runs it only when
 * the charge turned succeeded). Ends the discount when that was its last covered period; returns
 * whether it ended. A discount already ended (removed meanwhile) is left as it is.
 */
export async function countDiscountedPeriod(db: Db, id: string, at: Date): Promise<{ ended: boolean; subscriptionId: string } | undefined> {
  const [row] = await db<{ ended: boolean; subscriptionId: string }[]>`
    update subscription_discounts d
    set periods_applied = d.periods_applied + 1,
        ended_at = case when k.duration = 'once' or (k.duration = 'repeating' and d.periods_applied + 1 >= k.duration_in_periods)
                        then ${at}::timestamptz end,
        end_reason = case when k.duration = 'once' or (k.duration = 'repeating' and d.periods_applied + 1 >= k.duration_in_periods)
                          then 'used_up' end
    from coupons k
    where d.id = ${id} and k.id = d.coupon_id and d.ended_at is null
    returning d.ended_at is not null as ended, d.subscription_id as "subscriptionId"`;
  return row;
}

/** What each period charges under the open discount (null: the full amount); MRR counts it (00040_coupons.sql). */
export async function setDiscountedAmount(db: Db, subscriptionId: string, amount: string | null): Promise<void> {
  await db`update subscriptions set discounted_amount = ${amount}, updated_at = now() where id = ${subscriptionId}`;
}

/** A promotion code given on the hosted enrolment page, kept until the indexer projects the subscription. */
export async function recordEnrolmentPromotionCode(
  db: Db,
  p: { merchantId: string; livemode: boolean; planId: string; subscriberAddress: string; promotionCodeId: string },
): Promise<void> {
  await db`
    insert into enrolment_promotion_codes (merchant_id, livemode, plan_id, subscriber_address, promotion_code_id)
    values (${p.merchantId}, ${p.livemode}, ${p.planId}, ${p.subscriberAddress.toLowerCase()}, ${p.promotionCodeId})
    on conflict (merchant_id, livemode, plan_id, subscriber_address)
      do update set promotion_code_id = excluded.promotion_code_id, created_at = now()`;
}

/** Takes (deletes and returns) the code given at enrolment for this plan and wallet, if any. */
export async function takeEnrolmentPromotionCode(
  db: Db,
  p: { merchantId: string; livemode: boolean; planId: string; subscriberAddress: string },
): Promise<string | undefined> {
  const [row] = await db<{ promotionCodeId: string }[]>`
    delete from enrolment_promotion_codes
    where merchant_id = ${p.merchantId} and livemode = ${p.livemode} and plan_id = ${p.planId}
      and subscriber_address = ${p.subscriberAddress.toLowerCase()}
    returning promotion_code_id as "promotionCodeId"`;
  return row?.promotionCodeId;
}
