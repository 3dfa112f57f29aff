// All activities of the worker, merged from one factory per domain.
import { createEventActivities, type EventActivityDeps } from './events.js';
import { createWebhookActivities, type WebhookActivityDeps } from './webhooks.js';

export type ActivityDeps = EventActivityDeps & WebhookActivityDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createEventActivities(deps),
    ...createWebhookActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
