// eventDispatcherWorkflow: the one long-lived reader of the event outbox per
// task queue (workflow id event-dispatcher-<task queue>). Each turn of its loop
// is one activity, dispatchEventBatch, that claims a batch of undispatched
// events, starts one webhookDeliveryWorkflow per event x subscribed endpoint
// (id whd_<event>_<endpoint>, duplicates rejected) and marks the batch
// dispatched. A full batch is followed at once by the next; otherwise it waits
// for the `eventsRecorded` signal, which the api sends after each commit
// (signal-with-start, so a missing dispatcher is started) and the outbox sweep
// sends when an event has waited too long. No timer: an idle dispatcher costs
// nothing, and the sweep Schedule is its clock. It continues as new every
// TURNS_PER_RUN turns (or earlier when Temporal suggests it), so its history
// stays bounded.
import {
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setHandler,
  workflowInfo,
  allHandlersFinished,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { EVENT_BATCH_ACTIVITY } from './options.js';

const { dispatchEventBatch } = proxyActivities<Activities>(EVENT_BATCH_ACTIVITY);

/** Events were committed (or may be waiting): look at the outbox. */
export const eventsRecordedSignal = defineSignal('eventsRecorded');

/** Events one batch claims. */
export const EVENT_DISPATCH_BATCH = 500;
/** Turns of the loop before continue-as-new (about ten history events each, plus one per signal). */
export const TURNS_PER_RUN = 200;
/** Continue as new earlier when signals made the history this long. */
const MAX_HISTORY_LENGTH = 5_000;

export type EventDispatcherInput = Record<string, never>;

/** The dispatcher's fixed id: one per task queue. */
export const eventDispatcherWorkflowId = (taskQueue: string): string => `event-dispatcher-${taskQueue}`;

export async function eventDispatcherWorkflow(_input: EventDispatcherInput = {}): Promise<void> {
  // A new run looks once before it waits: it may have been started by a signal-with-start, or
  // continued from a run whose last signal it did not read.
  let wake = true;
  setHandler(eventsRecordedSignal, () => {
    wake = true;
  });
  for (let turn = 0; turn < TURNS_PER_RUN; turn++) {
    await condition(() => wake);
    wake = false;
    const { claimed } = await dispatchEventBatch({ limit: EVENT_DISPATCH_BATCH });
    // A full batch: more may be waiting.
    if (claimed >= EVENT_DISPATCH_BATCH) wake = true;
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > MAX_HISTORY_LENGTH) break;
  }
  await condition(allHandlersFinished);
  await continueAsNew<typeof eventDispatcherWorkflow>({});
}
