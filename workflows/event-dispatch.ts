// dispatchEventWorkflow: one per event in the outbox (workflow id = event id).
// It hands the event to its consumers and marks it dispatched, so the outbox
// sweep never starts it again.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { DATABASE_ACTIVITY } from './options.js';

const { loadEvent, markEventDispatched } = proxyActivities<Activities>(DATABASE_ACTIVITY);

export type DispatchEventInput = { eventId: string };

export async function dispatchEventWorkflow({ eventId }: DispatchEventInput): Promise<void> {
  const event = await loadEvent(eventId);
  if (!event) return;
  await markEventDispatched(eventId);
}
