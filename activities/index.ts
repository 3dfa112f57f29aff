// All activities of the worker, merged from one factory per domain.
import { createEventDispatcher, type EventDispatcher } from '../src/events/dispatch.js';
import { unconfiguredSubscriptionChain, type SubscriptionChain } from '../src/subscriptions/chain.js';
import { createEventActivities, type EventActivityDeps } from './events.js';
import { createSubscriptionActivities } from './subscriptions.js';

export type ActivityDeps = EventActivityDeps & {
  /** The chain port of subscription charges; without it chain activities fail and retry. */
  subscriptionChain?: SubscriptionChain;
  onDispatchError?: (error: unknown, eventId: string) => void;
  /** Overrides how recorded events are dispatched (default: start their dispatch workflow). */
  events?: EventDispatcher;
};

export function createActivities(deps: ActivityDeps) {
  const events = deps.events ?? createEventDispatcher(deps.temporal, deps.taskQueue, deps.onDispatchError ?? (() => {}));
  return {
    ...createEventActivities(deps),
    ...createSubscriptionActivities({ sql: deps.sql, events, subscriptionChain: deps.subscriptionChain ?? unconfiguredSubscriptionChain }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
