// The merchant's event log: every event its objects produced, in the exact
// shape its webhooks carry, with the delivery attempts of each.
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import type { MerchantScope } from '../http/principal.js';
import { webhookBody, webhookPayload } from '../webhooks/payload.js';
import * as repo from './repo.js';
import {
  DELIVERY_REQUEST_BODY_MAX_CHARS,
  type Event,
  type EventDelivery,
  type EventListQuery,
  type EventWithDeliveries,
} from './schemas.js';

/** How many delivery attempts GET /v1/events/{id} returns (the newest). */
export const EVENT_DELIVERIES_SHOWN = 100;

export function renderEvent(row: repo.EventRow): Event {
  return { ...webhookPayload(row), objectId: row.objectId };
}

function renderEventDelivery(row: repo.EventDeliveryRow, event: repo.EventRow): EventDelivery {
  // Attempts recorded before request bodies were stored: the body is rebuilt from the event, byte for byte what was signed.
  const requestBody = row.requestBody ?? webhookBody(event).toString('utf8');
  return {
    id: row.id,
    object: 'webhook_delivery',
    endpointId: row.endpointId,
    endpointUrl: row.endpointUrl,
    status: row.status,
    attempt: row.attempt,
    replay: row.sequence,
    attemptedAt: row.attemptedAt.toISOString(),
    durationMs: row.durationMs,
    nextRetryAt: row.nextRetryAt?.toISOString() ?? null,
    responseStatus: row.responseStatus,
    requestBody: requestBody.slice(0, DELIVERY_REQUEST_BODY_MAX_CHARS),
    responseBodyExcerpt: row.responseBodyExcerpt,
    error: row.error,
  };
}

export function createEventService({ sql }: { sql: Sql }) {
  return {
    async list(scope: MerchantScope, query: EventListQuery): Promise<Page<Event>> {
      const createdFrom = query.createdFrom ? new Date(query.createdFrom) : undefined;
      const createdTo = query.createdTo ? new Date(query.createdTo) : undefined;
      const rows = await repo.listEvents(sql, scope, {
        type: query.type,
        objectId: query.objectId,
        testClock: query.testClock,
        createdFrom,
        createdTo,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderEvent);
    },

    async get(scope: MerchantScope, id: string): Promise<EventWithDeliveries> {
      const row = await repo.findEvent(sql, scope, id);
      if (!row) throw new NotFoundError(`No such event: ${id}.`, { param: 'id' });
      const deliveries = await repo.listEventDeliveries(sql, scope, id, EVENT_DELIVERIES_SHOWN);
      return { ...renderEvent(row), deliveries: deliveries.map((d) => renderEventDelivery(d, row)) };
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
