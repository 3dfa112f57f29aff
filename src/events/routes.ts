// HTTP routes of the events API. Events are what webhooks carry, so they are
// read with `webhooks_read` (docs/decisions.md, Events API).
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import type { FastifyZodInstance } from '../http/types.js';
import { eventList, eventListQuery, eventParams, eventWithDeliveries } from './schemas.js';
import type { EventService } from './service.js';

const EVENTS = ['Events'];

export function registerEventRoutes(app: FastifyZodInstance, events: EventService): void {
  app.route({
    method: 'GET',
    url: '/v1/events',
    config: { access: access.scope('webhooks_read') },
    schema: {
      tags: EVENTS,
      summary: 'List events',
      description:
        "Every event the merchant's objects produced in this mode, newest first, each exactly as its webhooks carry it plus " +
        '`objectId`. Filters combine: `type`, `objectId` (events about that object or naming it as related), and ' +
        '`createdFrom` (inclusive) / `createdTo` (exclusive).',
      querystring: eventListQuery,
      response: { 200: eventList },
    },
    handler: (request) => events.list(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/events/:id',
    config: { access: access.scope('webhooks_read') },
    schema: {
      tags: EVENTS,
      summary: 'Retrieve an event with its delivery attempts',
      description: 'The event, plus every attempt to deliver it to any endpoint, with the request body sent and the start of the response.',
      params: eventParams,
      response: { 200: eventWithDeliveries },
    },
    handler: (request) => events.get(requestScope(request), request.params.id),
  });
}
