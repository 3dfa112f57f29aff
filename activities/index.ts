// All activities of the worker, merged from one factory per domain.
import { createEmailActivities, type EmailActivityDeps } from './email.js';
import { createEventActivities, type EventActivityDeps } from './events.js';

export type ActivityDeps = EventActivityDeps & EmailActivityDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createEventActivities(deps),
    ...createEmailActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
