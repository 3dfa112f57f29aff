// HTTP routes of subscriptions. There is no create: subscriptions are enrolled on-chain.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { foldMetadataQuery } from '../http/metadata.js';
import {
  cancelSubscriptionBody,
  subscription,
  subscriptionList,
  subscriptionListQuery,
  subscriptionParams,
  updateSubscriptionBody,
} from './schemas.js';
import type { SubscriptionService } from './service.js';
import { subscriptionPeriodCloseList, subscriptionPeriodCloseListQuery, upcomingInvoice } from '../billing-meters/close-schemas.js';

export function registerSubscriptionRoutes(app: FastifyZodInstance, subscriptions: ServiceOn<SubscriptionService>): void {
  app.route({
    method: 'GET',
    url: '/v1/subscriptions/:id',
    config: { access: access.scope('subscriptions_read') },
    schema: { tags: ['Subscriptions'], summary: 'Retrieve a subscription', params: subscriptionParams, response: { 200: subscription } },
    handler: (request) => subscriptions(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscriptions/:id/period-closes',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: ['Subscriptions'],
      summary: "List a metered subscription's period closes",
      description:
        "Each period of a metered plan closes at its start, after the plan's usage grace: its fixed price in advance, the usage of the period before in arrears (one line per meter with quantity and tiers), the total, what was pulled on chain (at most the authorised cap) and the open invoice for any rest (docs/metered-billing.md). Newest first; none for a fixed plan.",
      params: subscriptionParams,
      querystring: subscriptionPeriodCloseListQuery,
      response: { 200: subscriptionPeriodCloseList },
    },
    handler: (request) => subscriptions(request.db).periodCloses(requestScope(request), request.params.id, request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscriptions/:id/upcoming-invoice',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: ['Subscriptions'],
      summary: "Preview a subscription's next charge",
      description:
        "The lines the next charge would have if usage stopped now, computed by the period close's own code: the next period's fixed price, its discount, any proration waiting and, for a metered plan, one usage line per meter from the usage so far in the current period (quantity and tiers); the total, what would be pulled (at most the authorised cap) and the rest an open invoice would bill. Once the period is closed (its charge retried) the frozen close is shown (`closed: true`). A cancelled, lapsed, completed or paused subscription, or one set to cancel at the period end, has no next charge: 403 `session_invalid_state` (docs/metered-billing.md).",
      params: subscriptionParams,
      response: { 200: upcomingInvoice },
    },
    handler: (request) => subscriptions(request.db).upcomingInvoice(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscriptions',
    config: { access: access.scope('subscriptions_read') },
    preValidation: foldMetadataQuery,
    schema: {
      tags: ['Subscriptions'],
      summary: 'List subscriptions',
      querystring: subscriptionListQuery,
      response: { 200: subscriptionList },
    },
    handler: (request) => subscriptions(request.db).list(requestScope(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/subscriptions/:id',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Subscriptions'],
      summary: 'Update a subscription',
      description:
        'Only `metadata` may change here (merged; a key sent as "" is removed), in any status: the plan changes with POST /v1/subscriptions/{id}/change-plan, the status with cancel, pause and resume. Sends `subscription.updated` with `previousAttributes.metadata` when something changed; a call that changes nothing sends nothing.',
      params: subscriptionParams,
      body: updateSubscriptionBody,
      response: { 200: subscription },
    },
    handler: (request) => subscriptions(request.db).update(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/subscriptions/:id/cancel',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Subscriptions'],
      summary: 'Cancel a subscription',
      description:
        'Marks the subscription cancelled at once (the response shows it) and queues the on-chain cancel, which the subscription workflow retries until it lands. Cancelling a cancelled, lapsed or completed subscription is `session_invalid_state`.\n\nWith `atPeriodEnd: true` the subscription is not cancelled now: `cancelAtPeriodEnd` is set and `cancelAt` is the start of the next period (the trial end for a trialing one), when it is cancelled (on chain too) instead of charged; `subscription.updated` is sent. Only a `trialing` or `active` subscription with a next period can be set to cancel at the period end, once; anything else is `session_invalid_state`. A cancel now replaces a scheduled one.',
      params: subscriptionParams,
      body: cancelSubscriptionBody.nullish().describe('Optional; an empty body is accepted.'),
      response: { 200: subscription },
    },
    handler: (request) => subscriptions(request.db).cancel(requestScope(request), request.params.id, request.body ?? {}),
  });

  app.route({
    method: 'POST',
    url: '/v1/subscriptions/:id/uncancel',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Subscriptions'],
      summary: 'Undo a cancel at period end',
      description:
        'Clears `cancelAtPeriodEnd`, `cancelAt` and `cancellationDetails` of a subscription set to cancel at the period end, before that happens: it renews as before. Sends `subscription.updated`. A subscription with no scheduled cancel, or one already ended, is `session_invalid_state`.',
      params: subscriptionParams,
      response: { 200: subscription },
    },
    handler: (request) => subscriptions(request.db).uncancel(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/subscriptions/:id/pause',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Subscriptions'],
      summary: 'Pause a subscription',
      description:
        'Pauses an `active` subscription: each period that comes due while it is `paused` is skipped and never charged. Anything else is `session_invalid_state`.',
      params: subscriptionParams,
      response: { 200: subscription },
    },
    handler: (request) => subscriptions(request.db).pause(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/subscriptions/:id/resume',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Subscriptions'],
      summary: 'Resume a paused subscription',
      description:
        'Makes a `paused` subscription `active` again; the next period that comes due is charged. Anything else is `session_invalid_state`.',
      params: subscriptionParams,
      response: { 200: subscription },
    },
    handler: (request) => subscriptions(request.db).resume(requestScope(request), request.params.id),
  });
}
