// A subscription's discount, applied or removed by the merchant. The charge reads it at charge time
// (activities/subscriptions.ts), so neither needs a message to the workflow.
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import type { MerchantScope } from '../http/principal.js';
import { renderSubscription } from '../subscriptions/api-shape.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import type { Subscription } from '../subscriptions/schemas.js';
import { redeemOntoSubscription, removeFromSubscription } from './redeem.js';
import type { ApplyDiscountBody } from './schemas.js';

export function createDiscountService({ sql, events }: { sql: Sql; events: EventDispatcher }) {
  return {
    /** Replaces any open discount (Stripe's rule); the next charge pulls the discounted amount. */
    async apply(scope: MerchantScope, subscriptionId: string, input: ApplyDiscountBody): Promise<Subscription> {
      return commitWithEvents(sql, events, async (tx, record) =>
        renderSubscription(
          await redeemOntoSubscription(
            tx,
            record,
            scope,
            subscriptionId,
            input.coupon !== undefined ? { couponId: input.coupon } : { promotionCodeId: input.promotionCode! },
          ),
        ),
      );
    },

    async remove(scope: MerchantScope, subscriptionId: string): Promise<Subscription> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const sub = await subscriptionRepo.findSubscription(tx, scope, subscriptionId, { forUpdate: true });
        if (!sub) throw new NotFoundError(`No such subscription: ${subscriptionId}.`, { param: 'id' });
        return renderSubscription(await removeFromSubscription(tx, record, scope, sub));
      });
    },
  };
}

export type DiscountService = ReturnType<typeof createDiscountService>;
