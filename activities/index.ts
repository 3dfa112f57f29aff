// All activities of the worker, merged from one factory per domain.
import { createEventActivities, type EventActivityDeps } from './events.js';

export type ActivityDeps = EventActivityDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createEventActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
