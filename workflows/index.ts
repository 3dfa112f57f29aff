// Every workflow the worker runs.
export { dispatchEventWorkflow } from './event-dispatch.js';
export { outboxSweepWorkflow } from './outbox-sweep.js';
export { subscriptionWorkflow } from './subscription.js';
