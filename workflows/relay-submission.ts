// relaySubmissionWorkflow: one per relay submission (workflow id derived from
// merchant, mode and Idempotency-Key). Simulate and submit from the relayer
// account, then follow to the configured confirmations. A revert is recorded
// as `failed` with its reason and never retried.
import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { RELAY_FOLLOW_ACTIVITY, RELAY_SUBMIT_ACTIVITY } from './options.js';

const { submitRelaySubmission } = proxyActivities<Activities>(RELAY_SUBMIT_ACTIVITY);
const { awaitRelayConfirmation } = proxyActivities<Activities>(RELAY_FOLLOW_ACTIVITY);

export type RelaySubmissionInput = { submissionId: string; livemode: boolean };
export type RelaySubmissionOutcome = { status: 'confirmed' | 'failed' };

export const relayStageQuery = defineQuery<'submitting' | 'following' | 'done'>('relayStage');

export async function relaySubmissionWorkflow(input: RelaySubmissionInput): Promise<RelaySubmissionOutcome> {
  let stage: 'submitting' | 'following' | 'done' = 'submitting';
  setHandler(relayStageQuery, () => stage);
  const submitted = await submitRelaySubmission(input);
  if (submitted.status === 'failed') {
    stage = 'done';
    return { status: 'failed' };
  }
  stage = 'following';
  const followed = await awaitRelayConfirmation(input);
  stage = 'done';
  return { status: followed.status === 'confirmed' ? 'confirmed' : 'failed' };
}
