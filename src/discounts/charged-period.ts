// After a period charged under a discount: the period counts toward the coupon's duration; after the
// last covered one the discount ends (`used_up`), the subscription's discounted amount is cleared (MRR
// counts the full amount again) and `customer.discount.deleted` is recorded. Runs in the transaction
// that marks the charge succeeded, only when it turned succeeded, so a period is counted once.
import type { Db } from '../db/client.js';
import type { RecordEvent } from '../events/commit.js';
import { renderSubscription } from '../subscriptions/api-shape.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import { businessNow } from '../test-clocks/business-time.js';
import { renderDiscount } from './api-shape.js';
import * as repo from './repo.js';

export async function countDiscountedPeriod(
  tx: Db,
  record: RecordEvent,
  sub: subscriptionRepo.SubscriptionRow,
  discountId: string,
): Promise<subscriptionRepo.SubscriptionRow> {
  const counted = await repo.countDiscountedPeriod(tx, discountId, await businessNow(tx, sub));
  if (!counted?.ended) return (await subscriptionRepo.findSubscriptionById(tx, sub.id)) ?? sub;
  await repo.setDiscountedAmount(tx, sub.id, null);
  const updated = (await subscriptionRepo.findSubscriptionById(tx, sub.id))!;
  const ended =
    sub.discount && sub.discount.id === discountId
      ? renderDiscount({ ...sub.discount, periodsApplied: sub.discount.periodsApplied + 1 }, updated)
      : null;
  await record({
    merchantId: sub.merchantId,
    livemode: sub.livemode,
    type: 'customer.discount.deleted',
    data: { object: ended, subscription: renderSubscription(updated) },
  });
  return updated;
}
