// The checks one usage event must pass before it is stored: an active meter for its event name, a timestamp
// in the accepted window, the customer key naming a customer of the scope, and a value the meter can count.
// Pure, so the single and the batch endpoint refuse the same events with the same `param`.
import type { MeterRow, NewMeterEvent } from './repo.js';
import { DECIMAL_VALUE, type MeterEventBody } from './schemas.js';

/** Oldest accepted event time, behind now. */
export const MAX_EVENT_AGE_MS = 35 * 86_400_000;
/** Furthest accepted event time, ahead of now (clock skew). */
export const MAX_EVENT_LEAD_MS = 5 * 60_000;

/** An event that passed: the row to store. */
export type CheckedMeterEvent = { kind: 'checked' } & NewMeterEvent;

export type MeterEventRefusal = { kind: 'refused'; param: string; message: string };

const refuse = (param: string, message: string): MeterEventRefusal => ({ kind: 'refused', param, message });

export function checkMeterEvent(
  event: MeterEventBody,
  meter: MeterRow | undefined,
  context: { now: Date; customerId: (type: MeterRow['customerMappingType'], key: string) => string | undefined },
): CheckedMeterEvent | MeterEventRefusal {
  if (!meter) return refuse('eventName', `No active meter takes the event name ${event.eventName}.`);
  const eventTime = event.timestamp ? new Date(event.timestamp) : context.now;
  if (eventTime.getTime() < context.now.getTime() - MAX_EVENT_AGE_MS) {
    return refuse('timestamp', 'timestamp must be at most 35 days in the past.');
  }
  if (eventTime.getTime() > context.now.getTime() + MAX_EVENT_LEAD_MS) {
    return refuse('timestamp', 'timestamp must be at most 5 minutes in the future.');
  }
  const customerParam = `payload.${meter.customerPayloadKey}`;
  const customerKey = event.payload[meter.customerPayloadKey];
  if (customerKey === undefined) return refuse(customerParam, `payload must name the customer in ${meter.customerPayloadKey}.`);
  const customerId = context.customerId(meter.customerMappingType, customerKey);
  if (!customerId) {
    const what = meter.customerMappingType === 'by_id' ? 'customer' : 'customer with the wallet';
    return refuse(customerParam, `No such ${what}: ${customerKey}.`);
  }
  let quantity: string | null = null;
  let distinctValue: string | null = null;
  if (meter.valueKey !== null) {
    const valueParam = `payload.${meter.valueKey}`;
    const value = event.payload[meter.valueKey];
    if (value === undefined) return refuse(valueParam, `payload must carry the value in ${meter.valueKey}.`);
    if (meter.aggregation === 'unique_count') {
      if (value.length === 0) return refuse(valueParam, `${meter.valueKey} must not be empty.`);
      distinctValue = value;
    } else {
      if (!DECIMAL_VALUE.test(value)) {
        return refuse(valueParam, `${meter.valueKey} must be a non-negative decimal string (at most 20 digits, 12 decimals).`);
      }
      quantity = value;
    }
  }
  return {
    kind: 'checked',
    identifier: event.identifier,
    meterId: meter.id,
    customerId,
    eventTime,
    quantity,
    distinctValue,
    payload: event.payload,
  };
}
