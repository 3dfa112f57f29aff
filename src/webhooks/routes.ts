// HTTP routes of webhook endpoints and webhook deliveries.
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
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
  createListenerBody,
  listenerAnswer,
  listenerAnswerBody,
  listenerParams,
  listenerStream,
  listenerStreamEvent,
  listenerWithSecret,
  replay,
  testEvent,
  testEventBody,
  TEST_EVENT_TYPE,
} from './schemas.js';
import type { WebhookListenerService } from './listeners.js';
import type { WebhookService } from './service.js';

const ENDPOINTS = ['Webhook endpoints'];
const DELIVERIES = ['Webhook deliveries'];
const LISTENERS = ['Webhook listeners'];

export function registerWebhookRoutes(app: FastifyZodInstance, webhooks: ServiceOn<WebhookService>): void {
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
    handler: (request) => webhooks(request.db).create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/webhook-endpoints/:id',
    config: { access: access.scope('webhooks_read') },
    schema: { tags: ENDPOINTS, summary: 'Retrieve a webhook endpoint', params: endpointParams, response: { 200: endpoint } },
    handler: (request) => webhooks(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/webhook-endpoints',
    config: { access: access.scope('webhooks_read') },
    schema: { tags: ENDPOINTS, summary: 'List webhook endpoints', querystring: endpointListQuery, response: { 200: endpointList } },
    handler: (request) => webhooks(request.db).list(requestScope(request), request.query),
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
    handler: (request) => webhooks(request.db).disable(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/enable',
    config: { access: access.scope('webhooks_write') },
    schema: {
      tags: ENDPOINTS,
      summary: 'Enable a webhook endpoint',
      description:
        'Delivery resumes for events recorded from now on; events missed while disabled are not sent (replay them from their delivery records).',
      params: endpointParams,
      response: { 200: endpoint },
    },
    handler: (request) => webhooks(request.db).enable(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/rotate-secret',
    config: { access: access.scope('webhooks_write') },
    schema: {
      tags: ENDPOINTS,
      summary: 'Rotate the signing secret',
      description:
        'Returns the new secret once. The previous secret keeps signing beside it (two signatures in webhook-signature) for 24 hours.',
      params: endpointParams,
      response: { 200: endpointWithSecret },
    },
    handler: (request) => webhooks(request.db).rotateSecret(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/webhook-endpoints/:id/test',
    // The answer waits for the delivery worker, which must see the test event: it commits first.
    config: { access: access.scope('webhooks_write'), commitsBeforeResponse: true },
    schema: {
      tags: ENDPOINTS,
      summary: 'Send a test event',
      description:
        `Records a test event (\`${TEST_EVENT_TYPE}\` unless \`type\` names another kind) and delivers it to this endpoint only (never to other endpoints, whatever they ` +
        'subscribe to), through the usual delivery: signed, retried on the usual schedule, one delivery record per attempt. ' +
        'Waits up to 15 seconds for the first attempt and returns it. A disabled endpoint is refused with `session_invalid_state`.',
      params: endpointParams,
      body: testEventBody,
      response: { 200: testEvent },
    },
    handler: (request) => webhooks(request.db).sendTestEvent(requestScope(request), request.params.id, request.body.type),
  });

  app.route({
    method: 'GET',
    url: '/v1/webhook-deliveries/:id',
    config: { access: access.scope('webhooks_read') },
    schema: { tags: DELIVERIES, summary: 'Retrieve a delivery record', params: deliveryParams, response: { 200: delivery } },
    handler: (request) => webhooks(request.db).getDelivery(requestScope(request), request.params.id),
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
    handler: (request) => webhooks(request.db).listDeliveries(requestScope(request), request.query),
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
    handler: (request) => webhooks(request.db).replay(requestScope(request), request.params.id),
  });
}

/** `npm run listen`: test-mode listeners, their event stream and the CLI's answers. */
export function registerWebhookListenerRoutes(app: FastifyZodInstance, listeners: WebhookListenerService): void {
  app.route({
    method: 'POST',
    url: '/v1/webhook-listeners',
    // The listener service holds open streams and is built once, on the pool: its writes commit on their own.
    config: { access: access.scope('webhooks_write'), commitsBeforeResponse: true },
    schema: {
      tags: LISTENERS,
      summary: 'Start a webhook listener (test mode only)',
      description:
        'Creates a temporary test-mode endpoint of kind `listener` for `npm run listen` and returns its signing secret once. ' +
        'Deliveries to it go through the usual workflow and are handed to whoever holds its stream; the service never opens a ' +
        "connection to the developer's machine. It expires one hour after its last stream closed. A live-mode key is refused " +
        'with `permission_denied`.',
      body: createListenerBody,
      response: { 200: listenerWithSecret },
    },
    handler: (request) => listeners.create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/webhook-listeners/:id/stream',
    config: {
      access: access.scope('webhooks_write'),
      // Documented as what it sends: text/event-stream, its schema describing one event (as OpenAPI 3.1 reads it).
      fileResponse: { contentType: 'text/event-stream', description: listenerStream.description ?? '', schema: listenerStreamEvent },
    },
    schema: {
      tags: LISTENERS,
      summary: "Receive a listener's deliveries (Server-Sent Events)",
      description:
        'A long-lived text/event-stream. Each `delivery` event carries the signed request to forward; answer it with ' +
        'POST /v1/webhook-listeners/{id}/answers. An attempt nobody answers within 10 seconds (or made while no stream is open) ' +
        'fails and is retried on the usual schedule.',
      operationId: 'streamWebhookListener',
      params: listenerParams,
      response: { 200: listenerStream },
    },
    // The reply carries a stream (no serialization); returning it tells Fastify the handler sent it.
    handler: async (request, reply) => (await listeners.stream(requestScope(request), request.params.id, reply)) as never,
  });

  app.route({
    method: 'POST',
    url: '/v1/webhook-listeners/:id/answers',
    config: { access: access.scope('webhooks_write'), commitsBeforeResponse: true },
    schema: {
      tags: LISTENERS,
      summary: 'Report the local response to a delivery',
      description: "The CLI's report of what the local receiver answered; recorded on the delivery attempt like a real response.",
      operationId: 'answerWebhookListenerRequest',
      params: listenerParams,
      body: listenerAnswerBody,
      response: { 200: listenerAnswer },
    },
    handler: (request) => listeners.answer(requestScope(request), request.params.id, request.body),
  });
}
