// Named activity option presets, shared by the workflows.
import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';

/** Short database steps run inside the workflow task; retried forever like DATABASE_ACTIVITY. */
export const DATABASE_LOCAL_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/** Database work: quick, retried forever with backoff (a database outage must not fail a business process). */
export const DATABASE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/** Sending an email: retried with backoff up to 10 minutes apart, for up to 3 days. */
export const EMAIL_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '3 days',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
};

/** One webhook attempt: the HTTP exchange has its own 10 s timeout; the activity adds database work around it. */
export const WEBHOOK_ATTEMPT_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/** Sending a relayed transaction: quick, retried with backoff (a retry re-sends the recorded bytes). */
export const RELAY_SUBMIT_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
};

/** Following a transaction to its confirmations: long-running, heartbeating, retried forever. */
export const RELAY_FOLLOW_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
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

/**
 * The on-chain charge inside the subscription workflow's task: a
 * charge is then one workflow task after the start instead of two plus an activity task. The
 * workflow task stays open while the charge waits for its batch and block; a dead worker is
 * noticed by the workflow task timeout and the task (and the idempotent charge) runs again.
 * Same retries as CHAIN_ACTIVITY; past 10 s between attempts they wait on a workflow timer.
 */
export const CHAIN_LOCAL_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: '2 minutes',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};

/**
 * One batch of the event dispatcher: a few seconds of starts. It heartbeats per start, so a
 * worker killed mid-batch is noticed in seconds and the batch runs again elsewhere.
 */
export const EVENT_BATCH_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
};

/**
 * One webhook attempt run inside the delivery workflow's task (patch `local-webhook-attempts`): the
 * common path, one attempt that succeeds, is then one workflow task instead of two plus an
 * activity task. Same timeout and retries as WEBHOOK_ATTEMPT_ACTIVITY.
 */
export const WEBHOOK_ATTEMPT_LOCAL_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: '1 minute',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};
