// SQL of the events API: reading the outbox as the merchant's event log, and
// the delivery attempts of one event.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import type { DeliveryStatus } from '../webhooks/repo.js';

export type EventRow = {
  id: string;
  livemode: boolean;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
  objectId: string | null;
};

export type EventFilter = {
  type?: string;
  objectId?: string;
  testClock?: string;
  createdFrom?: Date;
  createdTo?: Date;
  before?: string;
  limit: number;
};

const eventColumns = (db: Db) => db`id, livemode, type, data, created_at as "createdAt", object_id as "objectId"`;

export async function findEvent(db: Db, scope: MerchantScope, id: string): Promise<EventRow | undefined> {
  const [row] = await db<EventRow[]>`
    select ${eventColumns(db)} from events
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

/** Newest first by id (ids are time-sortable); `limit + 1` rows so the caller knows whether more exist. */
export async function listEvents(db: Db, scope: MerchantScope, filter: EventFilter): Promise<EventRow[]> {
  return db<EventRow[]>`
    select ${eventColumns(db)} from events
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${filter.type ? db`and type = ${filter.type}` : db``}
      ${filter.objectId ? db`and related_ids @> ${[filter.objectId]}::text[]` : db``}
      ${filter.testClock ? db`and data->>'testClock' = ${filter.testClock}` : db``}
      ${filter.createdFrom ? db`and created_at >= ${filter.createdFrom}` : db``}
      ${filter.createdTo ? db`and created_at < ${filter.createdTo}` : db``}
      ${filter.before ? db`and id < ${filter.before}` : db``}
    order by id desc limit ${filter.limit + 1}`;
}

export type EventDeliveryRow = {
  id: string;
  endpointId: string;
  endpointUrl: string;
  status: DeliveryStatus;
  attempt: number;
  sequence: number;
  attemptedAt: Date;
  durationMs: number;
  nextRetryAt: Date | null;
  responseStatus: number | null;
  requestBody: string | null;
  responseBodyExcerpt: string | null;
  error: string | null;
};

/** The newest `limit` attempts of one event to any of the merchant's endpoints, returned oldest first. */
export async function listEventDeliveries(db: Db, scope: MerchantScope, eventId: string, limit: number): Promise<EventDeliveryRow[]> {
  const rows = await db<EventDeliveryRow[]>`
    select d.id, d.endpoint_id as "endpointId", e.url as "endpointUrl", d.status, d.attempt, r.sequence,
      d.attempted_at as "attemptedAt", d.duration_ms as "durationMs", d.next_retry_at as "nextRetryAt",
      d.response_status as "responseStatus", d.request_body as "requestBody",
      d.response_body_excerpt as "responseBodyExcerpt", d.error
    from webhook_deliveries d
    join webhook_delivery_runs r on r.id = d.run_id
    join webhook_endpoints e on e.id = d.endpoint_id
    where d.event_id = ${eventId} and d.merchant_id = ${scope.merchantId} and d.livemode = ${scope.livemode}
    order by d.id desc limit ${limit}`;
  return rows.reverse();
}
