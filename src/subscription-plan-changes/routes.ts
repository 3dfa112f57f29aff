// HTTP route of a subscription's plan change: an explicit operation beside cancel, pause, resume and discount.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { subscription, subscriptionParams } from '../subscriptions/schemas.js';
import { changePlanBody } from './schemas.js';
import type { PlanChangeService } from './service.js';

export function registerPlanChangeRoutes(app: FastifyZodInstance, planChanges: ServiceOn<PlanChangeService>): void {
  app.route({
    method: 'POST',
    url: '/v1/subscriptions/:id/change-plan',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Subscriptions'],
      summary: "Change a subscription's plan",
      description:
        'Moves a `trialing` or `active` subscription to another plan of the same merchant and mode with the same interval (docs/decisions.md "Plan changes with proration"). In a trial, any change applies at once. An upgrade whose amount is within what the customer authorised on chain (`amount`) applies at once; with `create_prorations` the next period’s charge adds floor((new - old) * remainingSeconds / periodSeconds) for the rest of the period in progress, limited so that charge stays within `amount`. A cheaper or equal plan is `scheduled` for the start of the next period (`pendingPlanChange`). An amount above `amount` is `requires_customer_action`: nothing changes or is charged until the subscribing wallet signs a new enrolment for it on the hosted page at `pendingPlanChange.hostedUrl`; it then applies from the next period (nothing prorated) and the old enrolment is cancelled on chain. The current `planId` cancels a waiting change; a new change replaces it. Refused with `invalid_request` (param `planId`): unknown or another merchant’s or mode’s plan, archived, another interval or currency, not offered on the subscription’s chain, the current plan with no change waiting; (param `prorationBehavior`): `always_invoice`. Any other status, or a downgrade in the last authorised period, is `session_invalid_state`. Emits `subscription.updated`.',
      operationId: 'changeSubscriptionPlan',
      params: subscriptionParams,
      body: changePlanBody,
      response: { 200: subscription },
    },
    handler: (request) => planChanges(request.db).change(requestScope(request), request.params.id, request.body),
  });
}
