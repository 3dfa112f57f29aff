// relaySubmissionWorkflow: one per relay submission (workflow id derived from
// merchant, mode and Idempotency-Key). Simulate and submit from the relayer
// account, then follow to the configured confirmations. A revert is recorded
// as `failed` with its reason and never retried.
// BusinessStatus (workflows/business-status.ts): `pending` from the start, submitted, then confirmed or failed.
import { defineQuery, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { permanentFailureType } from '../src/temporal/failures.js';
import { publishBusinessStatus } from './business-status.js';
import { DATABASE_ACTIVITY, DATABASE_LOCAL_ACTIVITY, RELAY_FOLLOW_ACTIVITY, RELAY_SUBMIT_ACTIVITY } from './options.js';

// A local activity: sending is quick, and skipping an activity task round trip matters under load.
// It is idempotent (the signed transaction is recorded before it is sent), so a replayed retry is safe.
const { submitRelaySubmission } = proxyLocalActivities<Activities>(RELAY_SUBMIT_ACTIVITY);
const { awaitRelayConfirmation } = proxyActivities<Activities>(RELAY_FOLLOW_ACTIVITY);
/**
 * The outcome report (a database read, and a signal when the submission pays a session) runs as a
 * local activity: a submission that confirms within the submit step then completes in one workflow task.
 */
const { reportRelayOutcomeToSession } = proxyLocalActivities<Activities>(DATABASE_LOCAL_ACTIVITY);

/**
 * Only a submission that pays a payment session reports its outcome: for the others the report was
 * a database read that found nothing to tell. The submit step's recorded result says which, so
 * replay needs no patch (and no patch marker costs the server a search-attribute update per run):
 * results recorded before the change carry no `paysSession`, and those runs report as they did.
 */
const needsReport = (submitted: { paysSession?: boolean }) => submitted.paysSession !== false;

export type RelaySubmissionInput = { submissionId: string; livemode: boolean };
export type RelaySubmissionOutcome = { status: 'confirmed' | 'failed' };

/** Deterministic id of a submission's run: merchant, mode and Idempotency-Key. */
export function relayWorkflowId(input: { merchantId: string; livemode: boolean; idempotencyKey: string }): string {
  return `relay_${input.merchantId}_${input.livemode ? 'live' : 'test'}_${input.idempotencyKey}`;
}

export const relayStageQuery = defineQuery<'submitting' | 'following' | 'done'>('relayStage');

export async function relaySubmissionWorkflow(input: RelaySubmissionInput): Promise<RelaySubmissionOutcome> {
  let stage: 'submitting' | 'following' | 'done' = 'submitting';
  setHandler(relayStageQuery, () => stage);
  try {
    return await relay(input, (next) => void (stage = next));
  } catch (error) {
    // A submission that does not exist: nothing was or will be sent.
    if (permanentFailureType(error) === undefined) throw error;
    stage = 'done';
    return { status: 'failed' };
  }
}

async function relay(input: RelaySubmissionInput, setStage: (stage: 'following' | 'done') => void): Promise<RelaySubmissionOutcome> {
  const submitted = await submitRelaySubmission(input);
  if (submitted.status !== 'submitted') {
    publishBusinessStatus(submitted.status);
    // A payment for a payment session: tell the session.
    if (needsReport(submitted)) await reportRelayOutcomeToSession({ submissionId: input.submissionId });
    setStage('done');
    return { status: submitted.status };
  }
  setStage('following');
  publishBusinessStatus('submitted');
  const followed = await awaitRelayConfirmation(input);
  const status = followed.status === 'confirmed' ? 'confirmed' : 'failed';
  publishBusinessStatus(status);
  if (needsReport(submitted)) await reportRelayOutcomeToSession({ submissionId: input.submissionId });
  setStage('done');
  return { status };
}

const { startStaleRelaySubmissions } = proxyActivities<Activities>(DATABASE_ACTIVITY);

/**
 * relaySweepWorkflow: run by a Temporal Schedule every minute. Starts the workflow of any open
 * submission idle for a while, e.g. when the api recorded it but could not start its workflow and
 * the client never retried. A running workflow is left alone (same workflow id).
 */
export async function relaySweepWorkflow(input: { olderThanSeconds?: number } = {}): Promise<number> {
  return startStaleRelaySubmissions({ olderThanSeconds: input.olderThanSeconds ?? 60, limit: 500 });
}
