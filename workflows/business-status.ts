// The business status of a run, where an operator finds it: the BusinessStatus search attribute
// (`BusinessStatus = "completed"` in the Temporal UI or `temporal workflow list --query`) and the memo's
// `status`, both in the status vocabulary of the API object the run is for. The start set both
// (src/temporal/workflow-tags.ts); the run upserts each change here.
//
// One mechanism for every type: a run upserts BusinessStatus only when it was started with it. A start
// sends it only where the namespace has it registered (startOptionsFor reads ListSearchAttributes), so
// a run on the time-skipping test server, which has none and refuses an unknown one, never upserts it.
import { upsertMemo, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { BUSINESS_STATUS_SEARCH_ATTRIBUTE } from '../src/temporal/search-attributes.js';

/** The run's business status: the memo's `status` (set at start, then by publishBusinessStatus). */
export function businessStatus(): string | undefined {
  const status = workflowInfo().memo?.status;
  return typeof status === 'string' ? status : undefined;
}

/** Records `status` as the run's business status (an unchanged status issues no command). */
export function publishBusinessStatus(status: string): void {
  const info = workflowInfo();
  if (info.memo?.status !== status) upsertMemo({ status });
  const current = info.typedSearchAttributes.get(BUSINESS_STATUS_SEARCH_ATTRIBUTE);
  if (current !== undefined && current !== status) upsertSearchAttributes([{ key: BUSINESS_STATUS_SEARCH_ATTRIBUTE, value: status }]);
}
