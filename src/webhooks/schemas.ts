// Request and response shapes of webhook endpoints and webhook deliveries.
import { z } from 'zod';
import { EVENT_TYPES } from '../events/types.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { idParam, optionalBody, pathId, timestamp } from '../http/schemas.js';

/** Subscribes an endpoint to every event kind, including kinds added later. */
export const ALL_EVENTS = '*';
export const ENDPOINT_STATUSES = ['active', 'disabled'] as const;
/** `sending` and `interrupted` (issue 29): a send in flight, and one a crash cut short (its attempt was sent again). */
export const DELIVERY_STATUSES = ['sending', 'interrupted', 'succeeded', 'failed', 'permanently_failed'] as const;

const eventKind = z.enum([ALL_EVENTS, ...EVENT_TYPES]).describe('An event kind, or `*` for every kind (including kinds added later).');

export const createEndpointBody = z
  .object({
    url: z
      .string()
      .max(2048)
      .regex(/^https:\/\/[^\s]+$/i, 'must be an https:// URL')
      .describe('An https:// URL whose host resolves only to public addresses (checked at registration and on every delivery).'),
    events: z
      .array(eventKind)
      .min(1)
      .max(EVENT_TYPES.length + 1)
      .describe('Event kinds to receive; `*` for all.'),
    mode: z
      .enum(['test', 'live'])
      .optional()
      .describe('Must match the mode of the key used (defaults to it); an endpoint receives events of its mode only.'),
    description: z.string().trim().max(500).default(''),
  })
  .strict();

export const endpoint = z
  .object({
    id: z.string(),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    events: z.array(z.string()),
    mode: z.enum(['test', 'live']),
    status: z.enum(ENDPOINT_STATUSES),
    disabledReason: z
      .enum(['manual', 'too_many_failures', 'expired'])
      .nullable()
      .describe(
        'Why the endpoint is disabled: `manual` (POST .../disable), `too_many_failures` (5 permanent failures in 24 hours) ' +
          'or `expired` (a listener whose `npm run listen` session ended more than an hour ago).',
      ),
    disabledAt: timestamp.nullable(),
    signingSecretPrefix: z.string().describe('The leading characters of the current signing secret (`whsec_` and six more).'),
    previousSecretExpiresAt: timestamp
      .nullable()
      .describe('After a rotation, the previous secret keeps signing beside the new one until this time.'),
    description: z.string(),
    livemode: z.boolean(),
    createdAt: timestamp,
    kind: z
      .enum(['url', 'listener'])
      .describe(
        "`url`: deliveries are POSTed to `url`. `listener`: a test-mode `npm run listen` session receives them and forwards them on the developer's machine; `url` then reads `listener:<forward target>` and is never called by the service.",
      ),
    expiresAt: timestamp
      .nullable()
      .describe(
        'Listeners only: nothing is delivered after this time. It moves forward while a session is connected and is one hour after the last session closed.',
      ),
  })
  .meta({ id: 'WebhookEndpoint' });

export const endpointWithSecret = z
  .object({
    endpoint,
    signingSecret: z.string().describe('The `whsec_...` signing secret; returned only here.'),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const endpointParams = z.object({ id: pathId('webhookEndpoint') });
export const endpointList = listOf(endpoint);
export const endpointListQuery = listQueryOf('webhookEndpoint');

export const delivery = z
  .object({
    id: z.string(),
    object: z.literal('webhook_delivery'),
    endpointId: z.string(),
    eventId: z.string().describe('Also the `webhook-id` header: the same on every attempt and replay, so receivers can dedupe on it.'),
    eventType: z.string(),
    status: z
      .enum(DELIVERY_STATUSES)
      .describe(
        '`sending` (the request is out, no answer recorded yet), `succeeded` (2xx), `failed` (another attempt follows at nextRetryAt ' +
          'unless the endpoint is disabled), `permanently_failed` (no more attempts), `interrupted` (the sender stopped before the ' +
          'answer was recorded, e.g. a crash; the same attempt was sent again and has its own record: the receiver may have got it twice, same webhook-id).',
      ),
    attempt: z
      .number()
      .int()
      .describe('1 for the first attempt of a sequence. An attempt sent again after an interruption has a record per send.'),
    replay: z.number().int().describe('0 for the original attempt sequence, N for the Nth replay.'),
    responseStatus: z.number().int().nullable().describe('The HTTP status returned, or null when no response arrived.'),
    responseBodyExcerpt: z.string().nullable().describe('The first 1024 bytes of the response body.'),
    error: z.string().nullable().describe('Why no usable response arrived (timeout, connection, refused address).'),
    durationMs: z.number().int(),
    attemptedAt: timestamp,
    nextRetryAt: timestamp.nullable(),
    livemode: z.boolean(),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryParams = z.object({ id: pathId('webhookDelivery') });
export const deliveryList = listOf(delivery);
export const deliveryListQuery = listQueryOf('webhookDelivery').extend({
  endpointId: idParam('webhookEndpoint').optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
});

export const replay = z
  .object({
    object: z.literal('webhook_replay'),
    deliveryId: z.string().describe('The delivery record that was replayed.'),
    endpointId: z.string(),
    eventId: z.string(),
    replay: z.number().int().describe('The replay number; its attempts carry it in `replay`.'),
    status: z.literal('queued'),
  })
  .meta({ id: 'WebhookReplay' });

/** The kind of the test event (POST /v1/webhook-endpoints/{id}/test); not subscribable, sent only on request. */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

/** Every kind a test event may have: the endpoint's own test kind (the default) or any kind the platform emits. */
export const TEST_EVENT_TYPES = [TEST_EVENT_TYPE, ...EVENT_TYPES] as const;

export const testEventBody = optionalBody(
  z
    .object({
      type: z
        .enum(TEST_EVENT_TYPES)
        .default(TEST_EVENT_TYPE)
        .describe(
          `The kind of the test event (default \`${TEST_EVENT_TYPE}\`). For any other kind, \`data\` is a copy of the newest ` +
            'test-mode event of that kind of the merchant (so its shape is real and no live object is ever named), with ' +
            '`data.test` = true; when there is none yet, `data.object` is null.',
        ),
    })
    .strict(),
);

export const testEvent = z
  .object({
    object: z.literal('webhook_test_event'),
    endpointId: z.string(),
    eventId: z.string().describe('The recorded test event; also the `webhook-id` header.'),
    eventType: z.enum(TEST_EVENT_TYPES),
    delivery: delivery
      .nullable()
      .describe(
        'The first attempt, when it was recorded within 15 seconds; otherwise null, and the attempts appear in GET /v1/webhook-deliveries?endpointId=... as they happen.',
      ),
  })
  .meta({ id: 'WebhookTestEvent' });

export const createListenerBody = z
  .object({
    events: z
      .array(eventKind)
      .min(1)
      .max(EVENT_TYPES.length + 1)
      .default([ALL_EVENTS])
      .describe('Event kinds to receive; default `*`.'),
    forwardTo: z
      .string()
      .trim()
      .max(2048)
      .optional()
      .describe(
        'Where the CLI forwards deliveries, for display only (the service never calls it): shown as `url` = `listener:<forwardTo>`.',
      ),
    description: z.string().trim().max(500).default(''),
  })
  .strict();

export const listenerWithSecret = z
  .object({
    object: z.literal('webhook_listener'),
    endpoint,
    signingSecret: z.string().describe('The `whsec_...` secret deliveries to this listener are signed with; returned only here.'),
    streamPath: z.string().describe('GET this path (Accept: text/event-stream) to receive the deliveries.'),
    expiresAfterCloseSeconds: z.number().int().describe('The listener expires this long after its last stream closed.'),
  })
  .meta({ id: 'WebhookListener' });

export const listenerStream = z
  .string()
  .describe(
    'A text/event-stream. `event: ready` once, then `event: delivery` per delivery attempt (id = the request id; data = JSON ' +
      '`{requestId, eventId, eventType, attempt, headers, body}` where `headers` are the Standard Webhooks headers and `body` the ' +
      'signed bytes in base64), and a `: keepalive` comment every 10 seconds.',
  );

/**
 * One event of the listener stream as a client's SSE parser reads it (`event`, `data`, `id`): the OpenAPI schema of
 * the text/event-stream response. `data` is JSON text: `{listenerId, sessionId}` for `ready`, the delivery for `delivery`.
 */
export const listenerStreamEvent = {
  type: 'object',
  required: ['event', 'data'],
  properties: {
    event: { type: 'string', enum: ['ready', 'delivery'] },
    data: { type: 'string', description: 'JSON text: `{listenerId, sessionId}` (ready) or the delivery (delivery).' },
    id: { type: 'string', description: 'The delivery request id (delivery events).' },
    retry: { type: 'integer' },
  },
} as const;

export const listenerAnswerBody = z
  .object({
    requestId: idParam('webhookListenerRequest'),
    status: z.number().int().min(100).max(599).nullable().describe("The local receiver's HTTP status, or null when it gave no response."),
    bodyExcerpt: z.string().max(4096).nullable().default(null).describe('The start of the local response body (stored up to 1024 bytes).'),
    error: z.string().max(500).nullable().default(null).describe('Why no response arrived (connection refused, timeout).'),
    durationMs: z.number().int().min(0).max(3_600_000),
  })
  .strict();

export const listenerAnswer = z
  .object({
    object: z.literal('webhook_listener_answer'),
    requestId: z.string(),
    recorded: z.boolean().describe('False when the attempt had stopped waiting (too late) or another session answered first.'),
  })
  .meta({ id: 'WebhookListenerAnswer' });

export const listenerParams = z.object({ id: pathId('webhookEndpoint') });

export type CreateEndpointBody = z.infer<typeof createEndpointBody>;
export type TestEvent = z.infer<typeof testEvent>;
export type TestEventBody = z.infer<typeof testEventBody>;
export type TestEventType = (typeof TEST_EVENT_TYPES)[number];
export type CreateListenerBody = z.infer<typeof createListenerBody>;
export type ListenerWithSecret = z.infer<typeof listenerWithSecret>;
export type ListenerAnswerBody = z.infer<typeof listenerAnswerBody>;
export type ListenerAnswer = z.infer<typeof listenerAnswer>;
export type Endpoint = z.infer<typeof endpoint>;
export type EndpointWithSecret = z.infer<typeof endpointWithSecret>;
export type Delivery = z.infer<typeof delivery>;
export type DeliveryListQuery = z.infer<typeof deliveryListQuery>;
export type Replay = z.infer<typeof replay>;
