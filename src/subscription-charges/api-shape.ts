// The API shape of a subscription charge, shared by the routes and the activities.
import type * as repo from './repo.js';
import { chargeSubtotal, receiptLines } from './receipt.js';
import type { SubscriptionCharge } from './schemas.js';

export function renderCharge(row: repo.ChargeRow): SubscriptionCharge {
  return {
    id: row.id,
    object: 'subscription_charge',
    subscriptionId: row.subscriptionId,
    chainId: row.chainId,
    periodIndex: row.periodIndex,
    periodStart: row.periodStart.toISOString(),
    amount: row.amount,
    subtotal: chargeSubtotal(row),
    discount: row.discount
      ? {
          discount: row.discount.id,
          coupon: row.discount.couponId,
          promotionCode: row.discount.promotionCodeId,
          name: row.discount.name,
          amountOff: row.discount.amountOff,
        }
      : null,
    lines: receiptLines(row, 'USDC'),
    currency: 'USDC',
    status: row.status,
    attempts: row.attempts,
    transactionHash: row.txHash,
    blockNumber: row.blockNumber,
    failureCode: row.failureCode,
    failureReason: row.failureReason,
    attemptedAt: row.attemptedAt?.toISOString() ?? null,
    settledAt: row.settledAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}
