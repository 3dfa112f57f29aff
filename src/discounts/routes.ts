// HTTP routes of a subscription's discount: an explicit operation beside cancel, pause and resume.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { subscription, subscriptionParams } from '../subscriptions/schemas.js';
import { applyDiscountBody } from './schemas.js';
import type { DiscountService } from './service.js';

export function registerDiscountRoutes(app: FastifyZodInstance, discounts: ServiceOn<DiscountService>): void {
  app.route({
    method: 'POST',
    url: '/v1/subscriptions/:id/discount',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Subscriptions'],
      summary: 'Apply a coupon or promotion code to a subscription',
      description:
        "From the next charge on, each charge pulls the discounted amount (never more than the amount the customer authorised on chain, so no new signature is needed) until the coupon's duration is used up. Replaces an open discount. Refused with `invalid_request` (param `coupon` or `promotionCode`) when the coupon or code cannot be redeemed: unknown, deleted, inactive, expired, past `redeemBy`, at its maximum redemptions, not for the subscription's plan, first-time customers only, or an amount off that leaves nothing to charge; a cancelled, lapsed or completed subscription is `session_invalid_state`. Emits `customer.discount.created` (and `customer.discount.deleted` for a replaced one).",
      operationId: 'applySubscriptionDiscount',
      params: subscriptionParams,
      body: applyDiscountBody,
      response: { 200: subscription },
    },
    handler: (request) => discounts(request.db).apply(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'DELETE',
    url: '/v1/subscriptions/:id/discount',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Subscriptions'],
      summary: "Remove a subscription's discount",
      description:
        'The next charge pulls the full amount again (a period already attempted keeps the amount of its first attempt). No discount to remove is `session_invalid_state`. Emits `customer.discount.deleted`.',
      operationId: 'removeSubscriptionDiscount',
      params: subscriptionParams,
      response: { 200: subscription },
    },
    handler: (request) => discounts(request.db).remove(requestScope(request), request.params.id),
  });
}
