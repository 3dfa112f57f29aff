// HTTP routes of subscription plans, including the public read for hosted enrolment.
import type { FastifyZodInstance } from '../http/types.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { checkoutPlan, createPlanBody, plan, planList, planListQuery, planParams } from './schemas.js';
import type { PlanService } from './service.js';

export function registerPlanRoutes(app: FastifyZodInstance, plans: PlanService): void {
  app.route({
    method: 'POST',
    url: '/v1/subscription-plans',
    config: { access: access.scope('plans_write') },
    schema: { tags: ['Subscription plans'], summary: 'Create a plan', body: createPlanBody, response: { 200: plan } },
    handler: (request) => plans.create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscription-plans/:id',
    config: { access: access.scope('plans_read', { publishableKey: true }) },
    schema: { tags: ['Subscription plans'], summary: 'Retrieve a plan', params: planParams, response: { 200: plan } },
    handler: (request) => plans.get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscription-plans',
    config: { access: access.scope('plans_read') },
    schema: { tags: ['Subscription plans'], summary: 'List plans', querystring: planListQuery, response: { 200: planList } },
    handler: (request) => plans.list(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/checkout/plans/:id',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: 'A plan for the hosted enrolment page',
      params: planParams,
      response: { 200: checkoutPlan },
    },
    handler: async (request) => plans.getForCheckout(request.params.id),
  });
}
