// Request and response shapes of billing meters, meter events and event summaries (issue 41).
import { z } from 'zod';
import { idParam, pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';

export const METER_AGGREGATIONS = ['sum', 'count', 'max', 'last', 'unique_count'] as const;
export type MeterAggregation = (typeof METER_AGGREGATIONS)[number];

/** Most events a batch takes (Stripe's v2 stream takes 100 a call too). */
export const MAX_BATCH_EVENTS = 100;

const eventName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be 1 to 100 letters, digits, or _ . : -')
  .describe('The event name usage events for this meter carry (letters, digits, `_ . : -`).');

const payloadKey = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be 1 to 100 letters, digits, or _ . : -');

const displayName = z.string().trim().min(1).max(250);

export const customerMapping = z
  .object({
    type: z
      .enum(['by_id', 'by_wallet'])
      .describe("`by_id`: the payload key holds our customer id (`cus_...`); `by_wallet`: it holds the customer's wallet address."),
    eventPayloadKey: payloadKey.describe('The payload key that names the customer.'),
  })
  .strict();

export const createMeterBody = z
  .object({
    displayName: displayName.describe('Shown to the merchant.'),
    eventName: eventName.describe('Unique among the active meters of the merchant and mode.'),
    aggregation: z
      .enum(METER_AGGREGATIONS)
      .describe(
        '`sum` of the values, `count` of the events, `max` value, `last` value (latest timestamp), `unique_count` of distinct values.',
      ),
    valueKey: payloadKey
      .optional()
      .describe('The payload key holding the value; required for every aggregation but `count` (and refused with it).'),
    customerMapping: customerMapping
      .default({ type: 'by_id', eventPayloadKey: 'customerId' })
      .describe('Which payload key names the customer, and how. Default: `{ "type": "by_id", "eventPayloadKey": "customerId" }`.'),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.aggregation === 'count') !== (body.valueKey === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['valueKey'],
        message: 'valueKey is required for every aggregation but count, and refused with count',
      });
    }
    if (body.valueKey !== undefined && body.valueKey === body.customerMapping.eventPayloadKey) {
      ctx.addIssue({ code: 'custom', path: ['valueKey'], message: 'valueKey must differ from customerMapping.eventPayloadKey' });
    }
  })
  .meta({
    examples: [
      {
        displayName: 'API tokens',
        eventName: 'api_tokens',
        aggregation: 'sum',
        valueKey: 'tokens',
        customerMapping: { type: 'by_id', eventPayloadKey: 'customerId' },
      },
    ],
  });

export const meter = z
  .object({
    id: z.string(),
    object: z.literal('billing.meter'),
    displayName: z.string(),
    eventName: z.string(),
    aggregation: z.enum(METER_AGGREGATIONS),
    valueKey: z.string().nullable().describe('Null for a `count` meter.'),
    customerMapping: z.object({ type: z.enum(['by_id', 'by_wallet']), eventPayloadKey: z.string() }),
    status: z.enum(['active', 'inactive']).describe('An inactive meter takes no events; the events it has keep counting in summaries.'),
    deactivatedAt: timestamp.nullable(),
    livemode: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'BillingMeter' });

/** Only the display name may change: the rest decides how events already stored are counted. */
export const updateMeterBody = z.object({ displayName: displayName.optional() }).strict();

export const meterParams = z.object({ id: pathId('billingMeter') });
export const meterList = listOf(meter);
export const meterListQuery = listQueryOf('billingMeter').extend({
  status: z.enum(['active', 'inactive']).optional().describe('Only meters in this status.'),
});

/** Decimal text with at most 20 integer and 12 fractional digits: stored exactly as numeric, never a float. */
export const DECIMAL_VALUE = /^(0|[1-9][0-9]{0,19})(\.[0-9]{1,12})?$/;

export const meterEventBody = z
  .object({
    eventName: eventName.describe('The event name of an active meter.'),
    identifier: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[\x21-\x7e]+$/, 'must be 1 to 100 printable ASCII characters without spaces')
      .describe('Unique per merchant and mode: an event with an identifier already accepted is accepted again and ignored.'),
    timestamp: timestamp
      .optional()
      .describe('When the usage happened (default: now). Refused when more than 35 days old or more than 5 minutes ahead.'),
    payload: z
      .record(z.string().max(100), z.string().max(500))
      .refine((payload) => Object.keys(payload).length <= 20, 'must have at most 20 keys')
      .describe(
        'String values: the meter\'s customer key (a `cus_...` id or a wallet address) and its value key (a non-negative decimal string such as `"3"` or `"0.25"`, at most 12 decimals; any text for `unique_count`).',
      ),
  })
  .strict()
  .meta({
    examples: [
      {
        eventName: 'api_tokens',
        identifier: 'req_7f3a91',
        timestamp: '2026-11-27T10:15:00Z',
        payload: { customerId: 'cus_01JFZ6Y1T7N5W3Q8R2M4K6H9XA', tokens: '1250' },
      },
    ],
  });

export const meterEvent = z
  .object({
    object: z.literal('billing.meter_event'),
    identifier: z.string(),
    eventName: z.string(),
    timestamp,
    payload: z.record(z.string(), z.string()),
    duplicate: z.boolean().describe('True when an event with this identifier had been accepted already: this one was ignored.'),
    livemode: z.boolean(),
  })
  .meta({ id: 'BillingMeterEvent' });

const exampleEvent = {
  eventName: 'api_tokens',
  identifier: 'req_7f3a91',
  timestamp: '2026-11-27T10:15:00Z',
  payload: { customerId: 'cus_01JFZ6Y1T7N5W3Q8R2M4K6H9XA', tokens: '1250' },
};

export const meterEventBatchBody = z
  .object({ events: z.array(meterEventBody).min(1).max(MAX_BATCH_EVENTS).describe(`1 to ${MAX_BATCH_EVENTS} events.`) })
  .strict()
  .meta({
    examples: [
      { events: [exampleEvent, { ...exampleEvent, identifier: 'req_7f3a92', payload: { ...exampleEvent.payload, tokens: '0.5' } }] },
    ],
  });

export const meterEventBatchResult = z
  .object({
    identifier: z.string(),
    status: z
      .enum(['accepted', 'duplicate', 'refused'])
      .describe('`duplicate`: the identifier was accepted before, this event was ignored; `refused`: see `error`, nothing stored.'),
    error: z
      .object({ code: z.literal('invalid_request'), message: z.string(), param: z.string() })
      .optional()
      .describe('Why a refused event was refused; `param` is relative to the event (e.g. `timestamp`).'),
  })
  .meta({ id: 'BillingMeterEventBatchResult' });

export const meterEventBatch = z
  .object({
    object: z.literal('billing.meter_event_batch'),
    accepted: z.number().int(),
    duplicates: z.number().int(),
    refused: z.number().int(),
    data: z.array(meterEventBatchResult).describe('One result per event, in the order sent.'),
  })
  .meta({ id: 'BillingMeterEventBatch' });

export const cancelMeterEventBody = z
  .object({ identifier: meterEventBody.shape.identifier.describe('The identifier of an event accepted in the last 24 hours.') })
  .strict();

export const meterEventCancellation = z
  .object({
    object: z.literal('billing.meter_event_cancellation'),
    identifier: z.string(),
    cancelledAt: timestamp,
  })
  .meta({ id: 'BillingMeterEventCancellation' });

export const summaryQuery = z.object({
  customerId: idParam('customer').describe('The customer whose usage is summarised.'),
  startTime: timestamp.describe('Inclusive start, on a whole UTC hour (a whole UTC day with `valueGroupingWindow=day`).'),
  endTime: timestamp.describe('Exclusive end, aligned like `startTime`; at most 366 days after it.'),
  valueGroupingWindow: z
    .enum(['hour', 'day'])
    .optional()
    .describe('One summary per UTC hour or day that has events; without it, one summary for the whole range.'),
});

export const meterEventSummary = z
  .object({
    object: z.literal('billing.meter_event_summary'),
    meterId: z.string(),
    customerId: z.string(),
    startTime: timestamp,
    endTime: timestamp,
    aggregatedValue: z.string().describe('The aggregation over the window, as exact decimal text (no trailing zeros).'),
  })
  .meta({ id: 'BillingMeterEventSummary' });

export const meterEventSummaryList = listOf(meterEventSummary);

export type CreateMeterBody = z.infer<typeof createMeterBody>;
export type Meter = z.infer<typeof meter>;
export type UpdateMeterBody = z.infer<typeof updateMeterBody>;
export type MeterListQuery = z.infer<typeof meterListQuery>;
export type MeterEventBody = z.infer<typeof meterEventBody>;
export type MeterEvent = z.infer<typeof meterEvent>;
export type MeterEventBatch = z.infer<typeof meterEventBatch>;
export type MeterEventBatchResult = z.infer<typeof meterEventBatchResult>;
export type MeterEventCancellation = z.infer<typeof meterEventCancellation>;
export type SummaryQuery = z.infer<typeof summaryQuery>;
export type MeterEventSummary = z.infer<typeof meterEventSummary>;
