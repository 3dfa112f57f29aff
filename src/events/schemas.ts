// Request and response shapes of the events API (GET /v1/events, GET /v1/events/{id}).
import { z } from 'zod';
import { listOf, listQueryOf } from '../http/pagination.js';
import { createdRangeQuery } from '../http/list-filters.js';
import { pathId, timestamp } from '../http/schemas.js';
import { DELIVERY_STATUSES, TEST_EVENT_TYPE } from '../webhooks/schemas.js';
import { EVENT_TYPES } from './types.js';

/** Every kind an event may have: the subscribable kinds plus the test event's kind. */
export const RECORDED_EVENT_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;

export { DELIVERY_REQUEST_BODY_MAX_CHARS } from '../webhooks/payload.js';
import { DELIVERY_REQUEST_BODY_MAX_CHARS } from '../webhooks/payload.js';

const objectId = z
  .string()
  .max(255)
  .regex(/^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/, 'must be an object id such as ps_..., sub_..., inv_..., cus_... or re_...')
  .describe(
    'An object id (`ps_...`, `sub_...`, `inv_...`, `cus_...`, `re_...`, ...): the events about that object, and the events ' +
      "that name it as their related object (a subscription's `subscription.charged`, the session of an invoice).",
  );

export const event = z
  .object({
    id: z.string().describe('Also the `webhook-id` header of its deliveries.'),
    object: z.literal('event'),
    type: z.string().describe('The event kind (see the `events` of a webhook endpoint), or `webhook_endpoint.test`.'),
    created: timestamp,
    livemode: z.boolean(),
    data: z
      .record(z.string(), z.unknown())
      .describe('Exactly the `data` of the webhook payload; `data.object` is the object the event is about.'),
    objectId: z.string().nullable().describe('The id of `data.object`; null for a test event, which is about no real object.'),
  })
  .meta({ id: 'Event' });

export const eventDelivery = z
  .object({
    id: z.string(),
    object: z.literal('webhook_delivery'),
    endpointId: z.string(),
    endpointUrl: z.string().describe('The URL of the endpoint when the attempt was read (`listener:...` for `npm run listen`).'),
    status: z.enum(DELIVERY_STATUSES),
    attempt: z.number().int(),
    replay: z.number().int().describe('0 for the original attempt sequence, N for the Nth replay.'),
    attemptedAt: timestamp,
    durationMs: z.number().int(),
    nextRetryAt: timestamp.nullable(),
    responseStatus: z.number().int().nullable(),
    requestBody: z.string().describe(`The exact JSON body signed and sent (the first ${DELIVERY_REQUEST_BODY_MAX_CHARS} characters).`),
    responseBodyExcerpt: z.string().nullable().describe('The first 1024 bytes of the response body.'),
    error: z.string().nullable(),
  })
  .meta({ id: 'EventDelivery' });

export const eventWithDeliveries = event
  .extend({
    deliveries: z
      .array(eventDelivery)
      .describe('Every delivery attempt of this event to any endpoint, oldest first (at most 100: the newest ones).'),
  })
  .meta({ id: 'EventWithDeliveries' });

export const eventParams = z.object({ id: pathId('event') });

export const eventListQuery = listQueryOf('event').extend({
  type: z.enum(RECORDED_EVENT_TYPES).optional().describe('Only events of this exact kind.'),
  objectId: objectId.optional(),
  testClock: z
    .string()
    .max(255)
    .regex(/^clock_[0-9A-Za-z]{1,64}$/, 'must be a test clock id (clock_...)')
    .optional()
    .describe('Test mode: only the events a test clock produced (`data.testClock`), such as the timeline of its advances.'),
  ...createdRangeQuery,
});

export const eventList = listOf(event).meta({ id: 'EventList' });

export type Event = z.infer<typeof event>;
export type EventDelivery = z.infer<typeof eventDelivery>;
export type EventWithDeliveries = z.infer<typeof eventWithDeliveries>;
export type EventListQuery = z.infer<typeof eventListQuery>;
