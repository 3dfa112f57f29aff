// HTTP routes of subscription plans, including the public read for hosted enrolment.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { archivePlanBody, checkoutPlan, createPlanBody, plan, planList, planListQuery, planParams, updatePlanBody } from './schemas.js';
import type { PlanService } from './service.js';

export function registerPlanRoutes(app: FastifyZodInstance, plans: ServiceOn<PlanService>): void {
  app.route({
    method: 'POST',
    url: '/v1/subscription-plans',
    config: { access: access.scope('plans_write') },
    schema: { tags: ['Subscription plans'], summary: 'Create a plan', body: createPlanBody, response: { 200: plan } },
    handler: (request) => plans(request.db).create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscription-plans/:id',
    config: { access: access.scope('plans_read', { publishableKey: true }) },
    schema: { tags: ['Subscription plans'], summary: 'Retrieve a plan', params: planParams, response: { 200: plan } },
    handler: (request) => plans(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscription-plans',
    config: { access: access.scope('plans_read') },
    schema: { tags: ['Subscription plans'], summary: 'List plans', querystring: planListQuery, response: { 200: planList } },
    handler: (request) => plans(request.db).list(requestScope(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/subscription-plans/:id',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Subscription plans'],
      summary: 'Update a plan',
      description:
        "Only `name` and `trialEndBehavior` may change: the amount, interval and trial are the terms each subscriber's wallet signed on chain, so a new price is a new plan; the trial end behaviour is the merchant's policy, read when a trial's first charge is refused (running trials included). An archived plan cannot change (`session_invalid_state`). Emits `subscription_plan.updated` when either changes.",
      operationId: 'updatePlan',
      params: planParams,
      body: updatePlanBody,
      response: { 200: plan },
    },
    handler: (request) => plans(request.db).update(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/subscription-plans/:id/archive',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Subscription plans'],
      summary: 'Archive a plan',
      description:
        'The plan takes no new enrolments (hosted enrolment and storefront purchases are refused with `session_invalid_state`); subscriptions already on it keep running and charging on their signed terms. Archiving an archived plan is `session_invalid_state`. Emits `subscription_plan.archived`.',
      operationId: 'archivePlan',
      params: planParams,
      body: archivePlanBody,
      response: { 200: plan },
    },
    handler: (request) => plans(request.db).archive(requestScope(request), request.params.id),
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
    handler: async (request) => plans(request.db).getForCheckout(request.params.id),
  });
}
