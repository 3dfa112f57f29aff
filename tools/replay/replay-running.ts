// Replays the histories of workflows running on a Temporal server against the
// workflow code of this checkout, before a deploy: a change that running runs
// cannot replay (a non-deterministic edit without `patched()`) shows here, not
// as stuck workflows after the deploy (docs/operations.md, "Workflow shapes").
import type { Client, HistoryAndWorkflowId } from '@temporalio/client';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';

/** Every open run; narrow it with any visibility query (e.g. `AND WorkflowType = "subscriptionWorkflow"`). */
export const DEFAULT_REPLAY_QUERY = 'ExecutionStatus="Running"';
/** Runs replayed per workflow type: enough to meet each shape still open without downloading them all. */
export const DEFAULT_RUNS_PER_TYPE = 20;

export type ReplayOutcome = { workflowType: string; workflowId: string; runId: string; error?: string };

/** Downloads up to `perType` histories of each workflow type the query finds. */
async function* runningHistories(
  client: Client,
  query: string,
  perType: number,
  types: Map<string, string>,
): AsyncIterable<HistoryAndWorkflowId> {
  const seen = new Map<string, number>();
  for await (const run of client.workflow.list({ query })) {
    const count = seen.get(run.type) ?? 0;
    if (count >= perType) continue;
    seen.set(run.type, count + 1);
    types.set(run.runId, run.type);
    const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
    yield { workflowId: run.workflowId, history };
  }
}

/** Replays what the query finds against `replay` (the checkout's workflows by default); one outcome per run. */
export async function replayRunningWorkflows(
  client: Client,
  options: { query?: string; perType?: number; replay: ReplayWorkerOptions },
): Promise<ReplayOutcome[]> {
  const types = new Map<string, string>();
  const histories = runningHistories(client, options.query ?? DEFAULT_REPLAY_QUERY, options.perType ?? DEFAULT_RUNS_PER_TYPE, types);
  const outcomes: ReplayOutcome[] = [];
  for await (const result of Worker.runReplayHistories(options.replay, histories)) {
    outcomes.push({
      workflowType: types.get(result.runId) ?? 'unknown',
      workflowId: result.workflowId,
      runId: result.runId,
      ...(result.error ? { error: result.error.message } : {}),
    });
  }
  return outcomes;
}
