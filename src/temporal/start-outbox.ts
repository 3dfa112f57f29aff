// The outbox of workflow starts. A create that must start a workflow writes the
// start into `workflow_starts` in the same transaction as the object; after
// commit the api tries it at once (bounded in time), and the outbox sweep (a
// Temporal Schedule) retries every start still pending. So a create never
// answers 5xx after its commit because Temporal is unreachable: the committed
// object is what the Idempotency-Key replays, and its workflow starts later.
// A start may also carry a signal (signal-with-start), e.g. an invoice's send.
import type { Client } from '@temporalio/client';
import type { SignalDefinition, Workflow } from '@temporalio/common';
import type { Db } from '../db/client.js';
import { afterCommit } from '../db/request-transaction.js';
import { startWorkflowOnce } from './start-once.js';
import { startOptionsFor, type WorkflowTags } from './workflow-tags.js';

/** A start as stored in the outbox: the workflow type and the signal by name (they are data here). */
export type WorkflowStart = {
  workflowType: string;
  workflowId: string;
  taskQueue: string;
  args: unknown[];
  /** Signal-with-start: the signal to deliver (the workflow is started with `args` if it is not running). */
  signal?: { name: string; args?: unknown[] };
  /** Memo and search attributes of the run (src/temporal/workflow-tags.ts). */
  tags?: WorkflowTags;
};

/** A start of `workflow` (the function exported by workflows/<x>.ts), typed by its parameters. */
export function workflowStart<W extends Workflow>(
  workflow: W,
  options: { workflowId: string; taskQueue: string; args: Parameters<W>; tags?: WorkflowTags },
): WorkflowStart {
  return {
    workflowType: workflow.name,
    workflowId: options.workflowId,
    taskQueue: options.taskQueue,
    args: options.args,
    ...(options.tags ? { tags: options.tags } : {}),
  };
}

/** The same start delivering `signal` (signal-with-start). */
export function withSignal<Args extends unknown[]>(start: WorkflowStart, signal: SignalDefinition<Args>, ...args: Args): WorkflowStart {
  return { ...start, signal: { name: signal.name, ...(args.length > 0 ? { args } : {}) } };
}

/** What the api tries after commit, and what the sweep finds pending. */
export type QueuedWorkflowStart = WorkflowStart & { action: string };

/** How long the api waits for Temporal after commit before leaving a start to the sweep. */
export const AFTER_COMMIT_START_TIMEOUT_MS = 3000;

type StartRow = {
  workflowId: string;
  action: string;
  workflowType: string;
  taskQueue: string;
  args: unknown[];
  signalArgs: unknown[];
  tags: WorkflowTags | null;
};

/** Records a start inside the caller's transaction; a second record of the same workflow and action is ignored. */
export async function queueWorkflowStart(tx: Db, start: WorkflowStart): Promise<QueuedWorkflowStart> {
  const action = start.signal?.name ?? 'start';
  await tx`
    insert into workflow_starts (workflow_id, action, workflow_type, task_queue, args, signal_args, tags)
    values (${start.workflowId}, ${action}, ${start.workflowType}, ${start.taskQueue},
            ${tx.json(start.args as never)}, ${tx.json((start.signal?.args ?? []) as never)},
            ${start.tags ? tx.json(start.tags as never) : null})
    on conflict (workflow_id, action) do nothing`;
  return { ...start, action };
}

/** Drops the pending starts of a workflow whose object reached a terminal state (nothing is left to start). */
export async function discardPendingWorkflowStarts(tx: Db, workflowId: string): Promise<void> {
  await tx`update workflow_starts set done_at = now() where workflow_id = ${workflowId} and done_at is null`;
}

export async function findPendingWorkflowStarts(db: Db, olderThanSeconds: number, limit: number): Promise<QueuedWorkflowStart[]> {
  const rows = await db<StartRow[]>`
    select workflow_id as "workflowId", action, workflow_type as "workflowType", task_queue as "taskQueue",
           args, signal_args as "signalArgs", tags
    from workflow_starts
    where done_at is null and created_at <= now() - make_interval(secs => ${olderThanSeconds})
    order by created_at limit ${limit}`;
  return rows.map((row) => ({
    workflowType: row.workflowType,
    workflowId: row.workflowId,
    taskQueue: row.taskQueue,
    args: row.args,
    action: row.action,
    ...(row.action === 'start' ? {} : { signal: { name: row.action, args: row.signalArgs } }),
    ...(row.tags ? { tags: row.tags } : {}),
  }));
}

async function markDone(db: Db, start: QueuedWorkflowStart): Promise<void> {
  await db`update workflow_starts set done_at = now() where workflow_id = ${start.workflowId} and action = ${start.action} and done_at is null`;
}

async function recordFailure(db: Db, start: QueuedWorkflowStart, error: unknown): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  await db`
    update workflow_starts set attempts = attempts + 1, last_error = ${message}
    where workflow_id = ${start.workflowId} and action = ${start.action} and done_at is null`;
}

/**
 * Performs one queued start (a running workflow with that id counts as started; a signal is
 * delivered with signal-with-start) and marks it done. Throws when Temporal refused or was unreachable.
 */
export async function performWorkflowStart(client: Client, db: Db, start: QueuedWorkflowStart): Promise<void> {
  try {
    if (start.signal) {
      const signal = start.signal;
      await client.workflow.signalWithStart(start.workflowType, {
        workflowId: start.workflowId,
        taskQueue: start.taskQueue,
        args: start.args,
        signal: signal.name,
        signalArgs: signal.args ?? [],
        ...(await startOptionsFor(client, start.tags)),
      });
    } else {
      await startWorkflowOnce(client, start.workflowType, {
        workflowId: start.workflowId,
        taskQueue: start.taskQueue,
        args: start.args,
        ...(start.tags ? { tags: start.tags } : {}),
      });
    }
  } catch (error) {
    await recordFailure(db, start, error).catch(() => undefined);
    throw error;
  }
  await markDone(db, start);
}

export type WorkflowStarter = {
  /** Best effort after commit: a start that fails (or takes too long) is left to the outbox sweep. */
  startAfterCommit(starts: readonly QueuedWorkflowStart[]): Promise<void>;
};

export function createWorkflowStarter(
  client: Client | undefined,
  db: Db,
  onError: (error: unknown, start: QueuedWorkflowStart) => void,
  timeoutMs = AFTER_COMMIT_START_TIMEOUT_MS,
): WorkflowStarter {
  // In order: a signal-with-start queued after a plain start of the same workflow comes second.
  // After one failure the rest are left to the sweep too: Temporal is most likely unreachable,
  // and the caller should not wait for each of them in turn.
  async function startInOrder(client: Client, db: Db, starts: readonly QueuedWorkflowStart[]): Promise<void> {
    for (const [index, start] of starts.entries()) {
      let timer: NodeJS.Timeout | undefined;
      const attempt = client.withDeadline(Date.now() + timeoutMs, () => performWorkflowStart(client, db, start));
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Temporal did not accept the start within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        // The deadline bounds each call; the race also bounds connecting to an unreachable server.
        await Promise.race([attempt, timeout]);
      } catch (error) {
        attempt.catch(() => undefined);
        for (const skipped of starts.slice(index)) onError(error, skipped);
        return;
      } finally {
        clearTimeout(timer);
      }
    }
  }

  return {
    async startAfterCommit(starts) {
      if (!client) return;
      // On a request's transaction (db): after its COMMIT, which comes once the response is ready.
      await afterCommit(db, (after) => startInOrder(client, after, starts));
    },
  };
}
