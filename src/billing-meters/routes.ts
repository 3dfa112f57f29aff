// HTTP routes of billing meters and usage events (issue 41). Scopes (docs/decisions.md, "Meters and usage
// events"): a meter is part of the price catalogue (plans_read / plans_write, like coupons); reporting and
// cancelling usage and reading a customer's usage are subscription billing (subscriptions_write / _read).
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import {
  cancelMeterEventBody,
  createMeterBody,
  meter,
  meterEvent,
  meterEventBatch,
  meterEventBatchBody,
  meterEventBody,
  meterEventCancellation,
  meterEventSummaryList,
  meterList,
  meterListQuery,
  meterParams,
  summaryQuery,
  updateMeterBody,
} from './schemas.js';
import type { MeterService } from './service.js';

export function registerMeterRoutes(app: FastifyZodInstance, meters: ServiceOn<MeterService>): void {
  app.route({
    method: 'POST',
    url: '/v1/billing/meters',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Billing meters'],
      summary: 'Create a billing meter',
      description:
        'What usage is counted: events named `eventName`, aggregated by `aggregation` over the payload value under `valueKey`, per customer named by `customerMapping`. The event name must not be taken by another active meter of the merchant and mode (`invalid_request`, param `eventName`).',
      operationId: 'createBillingMeter',
      body: createMeterBody,
      response: { 200: meter },
    },
    handler: (request) => meters(request.db).create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/billing/meters/:id',
    config: { access: access.scope('plans_read') },
    schema: {
      tags: ['Billing meters'],
      summary: 'Retrieve a billing meter',
      operationId: 'getBillingMeter',
      params: meterParams,
      response: { 200: meter },
    },
    handler: (request) => meters(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/billing/meters',
    config: { access: access.scope('plans_read') },
    schema: {
      tags: ['Billing meters'],
      summary: 'List billing meters',
      description: 'Active and inactive meters, newest first (`status` to keep one).',
      operationId: 'listBillingMeters',
      querystring: meterListQuery,
      response: { 200: meterList },
    },
    handler: (request) => meters(request.db).list(requestScope(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/billing/meters/:id',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Billing meters'],
      summary: 'Update a billing meter',
      description: 'Only `displayName` may change: the rest decides how the events already stored are counted.',
      operationId: 'updateBillingMeter',
      params: meterParams,
      body: updateMeterBody,
      response: { 200: meter },
    },
    handler: (request) => meters(request.db).update(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/billing/meters/:id/deactivate',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Billing meters'],
      summary: 'Deactivate a billing meter',
      description:
        'Events for its event name are refused from now on and the name is free for another meter; the events stored keep counting in its summaries. Deactivating an inactive meter changes nothing.',
      operationId: 'deactivateBillingMeter',
      params: meterParams,
      response: { 200: meter },
    },
    handler: (request) => meters(request.db).setStatus(requestScope(request), request.params.id, 'inactive'),
  });

  app.route({
    method: 'POST',
    url: '/v1/billing/meters/:id/reactivate',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Billing meters'],
      summary: 'Reactivate a billing meter',
      description: 'Takes events again; refused (`invalid_request`, param `eventName`) while another active meter has its event name.',
      operationId: 'reactivateBillingMeter',
      params: meterParams,
      response: { 200: meter },
    },
    handler: (request) => meters(request.db).setStatus(requestScope(request), request.params.id, 'active'),
  });

  app.route({
    method: 'GET',
    url: '/v1/billing/meters/:id/event-summaries',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: ['Billing meters'],
      summary: "Summarise a customer's usage of a meter",
      description:
        "The meter's aggregation of the customer's uncancelled events in [startTime, endTime): one summary for the range, or one per UTC hour or day that has events (`valueGroupingWindow`), oldest first, all on one page.",
      operationId: 'listBillingMeterEventSummaries',
      params: meterParams,
      querystring: summaryQuery,
      response: { 200: meterEventSummaryList },
    },
    handler: (request) => meters(request.db).summaries(requestScope(request), request.params.id, request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/billing/meter-events',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Billing meters'],
      summary: 'Report a usage event',
      description:
        'Stored once per `identifier` (merchant and mode): a duplicate answers `duplicate: true` and counts nothing. Refused with `invalid_request` and its `param` for an event name no active meter takes (`eventName`), a timestamp over 35 days old or over 5 minutes ahead (`timestamp`), a missing or unknown customer (`payload.<key>`) or a missing or malformed value (`payload.<valueKey>`).',
      operationId: 'createBillingMeterEvent',
      body: meterEventBody,
      response: { 200: meterEvent },
    },
    handler: (request) => meters(request.db).ingest(requestScope(request), request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/billing/meter-events/batch',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Billing meters'],
      summary: 'Report up to 100 usage events',
      description:
        'A body of the wrong shape is refused whole (param `events.N.field`). Otherwise each event has its own result: `accepted`, `duplicate` (its identifier was accepted before, or earlier in this batch) or `refused` with the error the single endpoint would give; the accepted ones are stored in one statement.',
      operationId: 'createBillingMeterEventBatch',
      body: meterEventBatchBody,
      response: { 200: meterEventBatch },
    },
    handler: (request) => meters(request.db).ingestBatch(requestScope(request), request.body.events),
  });

  app.route({
    method: 'POST',
    url: '/v1/billing/meter-events/cancel',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: ['Billing meters'],
      summary: 'Cancel a usage event',
      description:
        'Within 24 hours of its acceptance the event stops counting in every summary; later, `invalid_request` (param `identifier`). An unknown identifier is `not_found`; cancelling again answers the first cancellation.',
      operationId: 'cancelBillingMeterEvent',
      body: cancelMeterEventBody,
      response: { 200: meterEventCancellation },
    },
    handler: (request) => meters(request.db).cancel(requestScope(request), request.body.identifier),
  });
}
