// All activities of the worker, merged from one factory per domain.
import { createEventActivities, type EventActivityDeps } from './events.js';
import { createRelayActivities, type RelayActivityDeps } from './relay.js';

export type ActivityDeps = EventActivityDeps & RelayActivityDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createEventActivities(deps),
    ...createRelayActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
