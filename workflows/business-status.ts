// The business status of a run, where an operator finds it: the BusinessStatus search attribute
// (`BusinessStatus = "completed"` in the Temporal UI or `temporal workflow list --query`) and the memo's
// `status`, both in the status vocabulary of the API object the run is for. The start set both
// (src/temporal/workflow-tags.ts); the run upserts each change here.
//
// One mechanism for every type: a run upserts BusinessStatus only when it was started with it. A start
// sends it only where the namespace has it registered (startOptionsFor reads ListSearchAttributes), so
// a run on the time-skipping test server, which has none and refuses an unknown one, never upserts it.
// ChainId follows the same rule: a run whose chain became known on the way (a session that accepts several
// chains, once paid) upserts it with the status, in the same command, only when its start carried ChainId.
import type { SearchAttributePair } from '@temporalio/common';
import { upsertMemo, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { BUSINESS_STATUS_SEARCH_ATTRIBUTE, CHAIN_ID_SEARCH_ATTRIBUTE } from '../src/temporal/search-attributes.js';

/** The run's business status: the memo's `status` (set at start, then by publishBusinessStatus). */
export function businessStatus(): string | undefined {
  const status = workflowInfo().memo?.status;
  return typeof status === 'string' ? status : undefined;
}

/**
 * Records `status` as the run's business status (an unchanged status issues no command), and `chainId` as its
 * ChainId when it differs from the start's (CHAIN_ID_NOT_YET_KNOWN there). Runs started before ChainId existed
 * carry none, so they issue exactly the commands they did: their histories replay unchanged.
 */
export function publishBusinessStatus(status: string, facts: { chainId?: number | null } = {}): void {
  const info = workflowInfo();
  if (info.memo?.status !== status) upsertMemo({ status });
  const pairs: SearchAttributePair[] = [];
  const current = info.typedSearchAttributes.get(BUSINESS_STATUS_SEARCH_ATTRIBUTE);
  if (current !== undefined && current !== status) pairs.push({ key: BUSINESS_STATUS_SEARCH_ATTRIBUTE, value: status });
  const chainId = info.typedSearchAttributes.get(CHAIN_ID_SEARCH_ATTRIBUTE);
  if (facts.chainId != null && chainId !== undefined && chainId !== facts.chainId)
    pairs.push({ key: CHAIN_ID_SEARCH_ATTRIBUTE, value: facts.chainId });
  if (pairs.length > 0) upsertSearchAttributes(pairs);
}
