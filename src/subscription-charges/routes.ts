// HTTP routes of subscription charges (read-only; the scheduler creates them).
import type { FastifyZodInstance } from '../http/types.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { chargeList, chargeListQuery, chargeParams, subscriptionCharge } from './schemas.js';
import type { ChargeService } from './service.js';

export function registerSubscriptionChargeRoutes(app: FastifyZodInstance, charges: ChargeService): void {
  app.route({
    method: 'GET',
    url: '/v1/subscription-charges/:id',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: ['Subscription charges'],
      summary: 'Retrieve a subscription charge',
      params: chargeParams,
      response: { 200: subscriptionCharge },
    },
    handler: (request) => charges.get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscription-charges',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: ['Subscription charges'],
      summary: 'List subscription charges',
      querystring: chargeListQuery,
      response: { 200: chargeList },
    },
    handler: (request) => charges.list(requestScope(request), request.query),
  });
}
