// HTTP routes of webhook endpoints and webhook deliveries.
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import type { FastifyZodInstance } from '../http/types.js';
import {
  createEndpointBody,
  delivery,
  deliveryList,
  deliveryListQuery,
  deliveryParams,
  endpoint,
  endpointList,
  endpointListQuery,
  endpointParams,
  endpointWithSecret,
  replay,
} from './schemas.js';
import type { WebhookService } from './service.js';

const ENDPOINTS = ['Webhook endpoints'];
const DELIVERIES = ['Webhook deliveries'];

export function registerWebhookRoutes(app: FastifyZodInstance, webhooks: WebhookService): void {
  app.route({
    method: 'POST',
    url: '/v1/webhook-endpoints',
    config: { access: access.scope('webhooks_write') },
    schema: {
      tags: ENDPOINTS,
      summary: 'Register a webhook endpoint',
      description: 'Returns the endpoint and its signing secret; the secret is shown only here and on rotation.',
      body: createEndpointBody,
      response: { 200: endpointWithSecret },
    },
    handler: (request) => webhooks.create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/webhook-endpoints/:id',
    config: { access: access.scope('webhooks_read') },
    schema: { tags: ENDPOINTS, summary: 'Retrieve a webhook endpoint', params: endpointParams, response: { 200: endpoint } },
    handler: (request) => webhooks.get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/webhook-endpoints',
    config: { access: access.scope('webhooks_read') },
    schema: { tags: ENDPOINTS, summary: 'List webhook endpoints', querystring: endpointListQuery, response: { 200: endpointList } },
    handler: (request) => webhooks.list(requestScope(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/disable',
    config: { access: access.scope('webhooks_write') },
    schema: {
      tags: ENDPOINTS,
      summary: 'Disable a webhook endpoint',
      description: 'A disabled endpoint receives nothing; its pending retries stop before their next attempt.',
      params: endpointParams,
      response: { 200: endpoint },
    },
    handler: (request) => webhooks.disable(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/enable',
    config: { access: access.scope('webhooks_write') },
    schema: {
      tags: ENDPOINTS,
      summary: 'Enable a webhook endpoint',
      description: 'Delivery resumes for events recorded from now on; events missed while disabled are not sent (replay them from their delivery records).',
      params: endpointParams,
      response: { 200: endpoint },
    },
    handler: (request) => webhooks.enable(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/rotate-secret',
    config: { access: access.scope('webhooks_write') },
    schema: {
      tags: ENDPOINTS,
      summary: 'Rotate the signing secret',
      description: 'Returns the new secret once. The previous secret keeps signing beside it (two signatures in webhook-signature) for 24 hours.',
      params: endpointParams,
      response: { 200: endpointWithSecret },
    },
    handler: (request) => webhooks.rotateSecret(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/webhook-deliveries/:id',
    config: { access: access.scope('webhooks_read') },
    schema: { tags: DELIVERIES, summary: 'Retrieve a delivery record', params: deliveryParams, response: { 200: delivery } },
    handler: (request) => webhooks.getDelivery(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/webhook-deliveries',
    config: { access: access.scope('webhooks_read') },
    schema: {
      tags: DELIVERIES,
      summary: 'List delivery records',
      description: 'One record per attempt, newest first.',
      querystring: deliveryListQuery,
      response: { 200: deliveryList },
    },
    handler: (request) => webhooks.listDeliveries(requestScope(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/webhook-deliveries/:id/replay',
    config: { access: access.scope('webhooks_write') },
    schema: {
      tags: DELIVERIES,
      summary: 'Replay a delivery',
      description: 'Starts a new attempt sequence for the same event and endpoint, with the same webhook-id.',
      params: deliveryParams,
      response: { 200: replay },
    },
    handler: (request) => webhooks.replay(requestScope(request), request.params.id),
  });
}
