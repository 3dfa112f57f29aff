// Named activity option presets, shared by the workflows.
import type { ActivityOptions } from '@temporalio/workflow';

/** Database work: quick, retried forever with backoff (a database outage must not fail a business process). */
export const DATABASE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};
