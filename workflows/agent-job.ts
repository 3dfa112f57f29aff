// agentJobWorkflow: one per agent job (workflow id = job id), started when the
// job is created (through the outbox of starts). It drives the ERC-8183 escrow
// for the merchant's agent wallet:
//   proposed --approve signal--> approved   (or: approvalDeadline passes -> expired)
//   approved --fundAgentJob--> funded       (createJob, setBudget, approve, fund; a revert -> failed)
//   funded / submitted --escrow events from the indexer (signal)--> submitted, completed, rejected, disputed, expired
//   funded / submitted --the on-chain deadline passes--> claimRefund -> expired
//   submitted --settle signal `complete` (POST /v1/agents/jobs/{id}/complete)--> completed
//   funded / submitted --settle signal `reject`--> rejected / disputed
//     (the agent wallet as evaluator sends the escrow call; the same transitions as the indexer's events)
// The database is the source of truth: each step is an activity that changes the job's status
// conditionally and answers the status it found, so the approve signal racing the proposal timer,
// or an escrow event delivered twice, changes nothing twice.
// BusinessStatus (workflows/business-status.ts) follows the job's status from the one it was started with.
import { condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { EscrowEventSignal } from '../src/agents/escrow.js';
import type { JobStatus, SettleRequest } from '../src/agents/schemas.js';
import { permanentFailureType } from '../src/temporal/failures.js';
import { publishBusinessStatus } from './business-status.js';
import { CHAIN_ACTIVITY, DATABASE_ACTIVITY } from './options.js';

const { loadAgentJob, expireAgentJobProposal, failAgentJob, applyAgentJobEscrowEvent } = proxyActivities<Activities>(DATABASE_ACTIVITY);
const { fundAgentJob, claimAgentJobRefund, settleAgentJob } = proxyActivities<Activities>(CHAIN_ACTIVITY);

export type AgentJobInput = { jobId: string };

/** One run per job: the id is the job's. */
export const agentJobWorkflowId = (jobId: string): string => jobId;

export const approveAgentJobSignal = defineSignal('approveAgentJob');
export const agentJobEscrowEventSignal = defineSignal<[EscrowEventSignal]>('agentJobEscrowEvent');
export const settleAgentJobSignal = defineSignal<[SettleRequest]>('settleAgentJob');
export const agentJobStatusQuery = defineQuery<JobStatus | null>('agentJobStatus');

const FINAL: readonly JobStatus[] = ['completed', 'rejected', 'disputed', 'expired', 'failed'];

export async function agentJobWorkflow({ jobId }: AgentJobInput): Promise<JobStatus | null> {
  let approveSignalled = false;
  const escrowEvents: EscrowEventSignal[] = [];
  const settleRequests: SettleRequest[] = [];
  let status: JobStatus | null = null;
  setHandler(approveAgentJobSignal, () => void (approveSignalled = true));
  setHandler(agentJobEscrowEventSignal, (event) => void escrowEvents.push(event));
  setHandler(settleAgentJobSignal, (request) => void settleRequests.push(request));
  setHandler(agentJobStatusQuery, () => status);

  let job = await loadAgentJob({ jobId });
  if (!job) return null;
  status = job.status;
  publishBusinessStatus(status);

  // The approve signal only wakes the workflow: the job's row says whether it was approved (a stray
  // signal changes nothing); at the deadline the proposal expires unless the approval won the race.
  while (status === 'proposed') {
    const deadlineMs: number = job.approvalDeadlineMs;
    const signalled: boolean = await condition(() => approveSignalled, Math.max(1000, deadlineMs - Date.now()));
    approveSignalled = false;
    job = signalled ? ((await loadAgentJob({ jobId })) ?? job) : await expireAgentJobProposal({ jobId });
    status = job.status;
    publishBusinessStatus(status);
  }

  if (status === 'approved') {
    try {
      job = await fundAgentJob({ jobId });
    } catch (error) {
      if (!permanentFailureType(error)) throw error;
      job = await failAgentJob({
        jobId,
        reason: error instanceof Error && error.cause instanceof Error ? error.cause.message : 'escrow call reverted',
      });
    }
    status = job.status;
    publishBusinessStatus(status);
  }

  let waitForEventOnly = false;
  // Histories recorded before the evaluator API have no settle signal, so they never reach the new activity.
  const wakeUp = () => escrowEvents.length > 0 || settleRequests.length > 0;
  while (!FINAL.includes(status)) {
    const expiresAtMs = job.expiresAtMs;
    const woken =
      waitForEventOnly || expiresAtMs === null
        ? (await condition(wakeUp), true)
        : await condition(wakeUp, Math.max(1000, expiresAtMs - Date.now()));
    const event = escrowEvents.shift();
    const settle = event ? undefined : settleRequests.shift();
    if (woken && event) {
      job = await applyAgentJobEscrowEvent({ jobId, event });
    } else if (woken && settle) {
      job = await settleAgentJob({ jobId, ...settle });
    } else {
      const claimed = await claimAgentJobRefund({ jobId });
      waitForEventOnly = claimed.settledElsewhere;
      job = claimed;
    }
    status = job.status;
    publishBusinessStatus(status);
  }
  return status;
}
