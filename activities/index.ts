// All activities of the worker, merged from one factory per domain.
import { createEmailActivities, type EmailActivityDeps } from './email.js';
import { createEventActivities, type EventActivityDeps } from './events.js';
import { createWebhookActivities, type WebhookActivityDeps } from './webhooks.js';
import { createRelayActivities, type RelayActivityDeps } from './relay.js';
import { createPaymentActivities, type PaymentActivityDeps } from './payments.js';

export type ActivityDeps = EventActivityDeps & EmailActivityDeps & WebhookActivityDeps & RelayActivityDeps & PaymentActivityDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createEventActivities(deps),
    ...createEmailActivities(deps),
    ...createWebhookActivities(deps),
    ...createRelayActivities(deps),
    ...createPaymentActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
