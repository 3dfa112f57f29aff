// Example bodies of the cancel-at-period-end and trial events (issue 40, item 3), shown under the OpenAPI
// document's `webhooks` (webhook-docs.ts) and in docs/events.md. Pure data: the whole subscription of the
// plan-change example, with the fields these events are about.
import { exampleSubscription } from './plan-change-event-examples.js';

const subscription = { ...exampleSubscription, planAmount: '10000000', amount: '10000000' };

const event = (id: string, type: string, created: string, data: Record<string, unknown>) => ({
  id,
  object: 'event',
  type,
  created,
  livemode: false,
  data,
});

/** One example body per event type. */
export const subscriptionEventExamples: Record<string, Record<string, unknown>> = {
  'subscription.updated': event('evt_01JD8ZX0000000000000000001', 'subscription.updated', '2026-12-10T14:02:00.000Z', {
    object: {
      ...subscription,
      status: 'active',
      nextChargeAt: '2027-01-01T09:30:00.000Z',
      cancelAtPeriodEnd: true,
      cancelAt: '2027-01-01T09:30:00.000Z',
      cancellationDetails: { requestedBy: 'merchant', reason: 'Moving to annual invoicing', feedback: 'switched_service' },
    },
    previousAttributes: { cancelAtPeriodEnd: false, cancelAt: null, cancellationDetails: null },
  }),
  'subscription.trial_will_end': event('evt_01JD8ZX0000000000000000002', 'subscription.trial_will_end', '2026-12-12T09:30:00.000Z', {
    object: {
      ...subscription,
      status: 'trialing',
      trialEnd: '2026-12-15T09:30:00.000Z',
      nextChargeAt: '2026-12-15T09:30:00.000Z',
      cancelAtPeriodEnd: false,
      cancelAt: null,
    },
  }),
};
