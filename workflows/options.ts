// Named activity option presets, shared by the workflows.
import type { ActivityOptions } from '@temporalio/workflow';

/** Database work: quick, retried forever with backoff (a database outage must not fail a business process). */
export const DATABASE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/**
 * Chain calls (simulate, send, wait for the receipt): slower, retried forever
 * with backoff. Safe to retry: every chain activity is idempotent on-chain
 * (the once-per-period guard, cancel of a cancelled subscription is a no-op).
 */
export const CHAIN_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  // The activity heartbeats while it waits for the chain: a dead worker is noticed in seconds.
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};
