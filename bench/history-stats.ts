// What the workflows of a bench run cost Temporal, read from their histories: workflow tasks, task
// timeouts, local activities, search-attribute upserts and memo updates, per item. CPU figures say how
// much; these say why (a task timeout replays the task, every local activity is a marker and a VM call).
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

const EventType = proto.temporal.api.enums.v1.EventType;

export type HistoryCounts = {
  workflows: number;
  workflowTasks: number;
  workflowTaskTimeouts: number;
  localActivities: number;
  activities: number;
  searchAttributeUpserts: number;
  memoUpdates: number;
  signals: number;
};

function noEvents(): Omit<HistoryCounts, 'workflows'> {
  return {
    workflowTasks: 0,
    workflowTaskTimeouts: 0,
    localActivities: 0,
    activities: 0,
    searchAttributeUpserts: 0,
    memoUpdates: 0,
    signals: 0,
  };
}

/** Counts the events of one history. */
export function countHistory(history: proto.temporal.api.history.v1.IHistory): Omit<HistoryCounts, 'workflows'> {
  const counts = noEvents();
  for (const event of history.events ?? []) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        counts.workflowTasks++;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
        counts.workflowTaskTimeouts++;
        break;
      case EventType.EVENT_TYPE_MARKER_RECORDED:
        if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') counts.localActivities++;
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        counts.activities++;
        break;
      case EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
        counts.searchAttributeUpserts++;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED:
        counts.memoUpdates++;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
        counts.signals++;
        break;
    }
  }
  return counts;
}

/** Sums the histories of every workflow the visibility `query` finds (read `concurrency` at a time). */
export async function historyCounts(client: Client, query: string, concurrency = 50): Promise<HistoryCounts> {
  const total: HistoryCounts = { workflows: 0, ...noEvents() };
  const ids: Array<{ workflowId: string; runId: string }> = [];
  for await (const execution of client.workflow.list({ query })) ids.push({ workflowId: execution.workflowId, runId: execution.runId });
  for (let i = 0; i < ids.length; i += concurrency) {
    const histories = await Promise.all(
      ids.slice(i, i + concurrency).map(({ workflowId, runId }) => client.workflow.getHandle(workflowId, runId).fetchHistory()),
    );
    for (const history of histories) {
      total.workflows++;
      const counts = countHistory(history);
      for (const key of Object.keys(counts) as Array<keyof typeof counts>) total[key] += counts[key];
    }
  }
  return total;
}

/** The counts divided by `items`, as printable figures. */
export function perItem(counts: HistoryCounts, items: number): Record<string, string> {
  const per = (n: number) => (n / items).toFixed(2);
  return {
    workflows: String(counts.workflows),
    'workflow tasks': per(counts.workflowTasks),
    'task timeouts': per(counts.workflowTaskTimeouts),
    'local activities': per(counts.localActivities),
    activities: per(counts.activities),
    'search-attribute upserts': per(counts.searchAttributeUpserts),
    'memo updates': per(counts.memoUpdates),
    signals: per(counts.signals),
  };
}
