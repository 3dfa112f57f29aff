// The Temporal Schedules of periodic jobs, created once by the worker (an
// existing schedule is left as it is, so restarts and many workers are safe).
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import {
  agentDailyWorkflow,
  invoiceSweepWorkflow,
  outboxSweepWorkflow,
  relaySweepWorkflow,
  usageThresholdSweepWorkflow,
} from '../../workflows/index.js';

export type ScheduleDefinition = { id: string; workflow: Workflow; every: string; args?: unknown[] };

export const SCHEDULES: readonly ScheduleDefinition[] = [
  { id: 'outbox-sweep', workflow: outboxSweepWorkflow, every: '1 minute' },
  { id: 'relay-sweep', workflow: relaySweepWorkflow, every: '1 minute' },
  // The spec's daily job for invoices: overdue, undelivered invoice emails, missing invoice workflows.
  { id: 'invoice-daily', workflow: invoiceSweepWorkflow, every: '1 day' },
  // The agents' daily run of the finished UTC day: cashflow anomaly and digest, pricing suggestions (docs/agents.md).
  { id: 'agent-daily', workflow: agentDailyWorkflow, every: '1 day' },
  // Metered plans' usage thresholds (docs/metered-billing.md, "Usage threshold"): usage that reached one is invoiced early.
  { id: 'usage-threshold-sweep', workflow: usageThresholdSweepWorkflow, every: '5 minutes' },
];

export async function ensureSchedules(client: Client, taskQueue: string): Promise<void> {
  for (const schedule of SCHEDULES) await ensureSchedule(client, taskQueue, schedule);
}

/** Creates one schedule; an existing one with that id is left as it is. */
export async function ensureSchedule(client: Client, taskQueue: string, schedule: ScheduleDefinition): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: schedule.id,
      spec: { intervals: [{ every: schedule.every }] },
      action: {
        type: 'startWorkflow',
        workflowType: schedule.workflow,
        workflowId: `${schedule.id}-run`,
        taskQueue,
        args: schedule.args ?? [],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
