// dispatchEventWorkflow: one per event in the outbox (workflow id = event id).
// It fans the event out to every subscribed, active webhook endpoint of the
// event's merchant and mode (one webhookDeliveryWorkflow each, started by an
// activity with id whd_<eventId>_<endpointId> and duplicates rejected, so a
// second dispatch of the same event starts nothing new), then marks the event
// dispatched, so the outbox sweep never starts it again.
//
// The three steps are short and idempotent, so they run as local activities:
// one workflow task instead of three server round trips per event.
import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { DATABASE_LOCAL_ACTIVITY } from './options.js';

const { loadEvent, markEventDispatched, fanOutWebhookDeliveries } = proxyLocalActivities<Activities>(DATABASE_LOCAL_ACTIVITY);

export type DispatchEventInput = { eventId: string };

/** Returns how many delivery runs it started. */
export async function dispatchEventWorkflow({ eventId }: DispatchEventInput): Promise<number> {
  const event = await loadEvent(eventId);
  if (!event) return 0;
  const started = await fanOutWebhookDeliveries(event);
  await markEventDispatched(eventId);
  return started;
}
