// agentJobWorkflow: one per agent job (workflow id = job id), started when the
// job is created (through the outbox of starts). It drives the ERC-8183 escrow
// for the merchant's agent wallet:
//   proposed --approve signal--> approved   (or: approvalDeadline passes -> expired)
//   approved --fundAgentJob--> funded       (createJob, setBudget, approve, fund; a revert -> failed)
//   funded / submitted --escrow events from the indexer (signal)--> submitted, completed, rejected, disputed, expired
//   funded / submitted --the on-chain deadline passes--> claimRefund -> expired
// The database is the source of truth: each step is an activity that changes the job's status
// conditionally and answers the status it found, so the approve signal racing the proposal timer,
// or an escrow event delivered twice, changes nothing twice.
import { condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { EscrowEventSignal } from '../src/agents/escrow.js';
import type { JobStatus } from '../src/agents/schemas.js';
import { permanentFailureType } from '../src/temporal/failures.js';
import { CHAIN_ACTIVITY, DATABASE_ACTIVITY } from './options.js';

const { loadAgentJob, expireAgentJobProposal, failAgentJob, applyAgentJobEscrowEvent } = proxyActivities<Activities>(DATABASE_ACTIVITY);
const { fundAgentJob, claimAgentJobRefund } = proxyActivities<Activities>(CHAIN_ACTIVITY);

export type AgentJobInput = { jobId: string };

/** One run per job: the id is the job's. */
export const agentJobWorkflowId = (jobId: string): string => jobId;

export const approveAgentJobSignal = defineSignal('approveAgentJob');
export const agentJobEscrowEventSignal = defineSignal<[EscrowEventSignal]>('agentJobEscrowEvent');
export const agentJobStatusQuery = defineQuery<JobStatus | null>('agentJobStatus');

const FINAL: readonly JobStatus[] = ['completed', 'rejected', 'disputed', 'expired', 'failed'];

export async function agentJobWorkflow({ jobId }: AgentJobInput): Promise<JobStatus | null> {
  let approveSignalled = false;
  const escrowEvents: EscrowEventSignal[] = [];
  let status: JobStatus | null = null;
  setHandler(approveAgentJobSignal, () => void (approveSignalled = true));
  setHandler(agentJobEscrowEventSignal, (event) => void escrowEvents.push(event));
  setHandler(agentJobStatusQuery, () => status);

  let job = await loadAgentJob({ jobId });
  if (!job) return null;
  status = job.status;

  // The approve signal only wakes the workflow: the job's row says whether it was approved (a stray
  // signal changes nothing); at the deadline the proposal expires unless the approval won the race.
  while (status === 'proposed') {
    const deadlineMs: number = job.approvalDeadlineMs;
    const signalled: boolean = await condition(() => approveSignalled, Math.max(1000, deadlineMs - Date.now()));
    approveSignalled = false;
    job = signalled ? ((await loadAgentJob({ jobId })) ?? job) : await expireAgentJobProposal({ jobId });
    status = job.status;
  }

  if (status === 'approved') {
    try {
      job = await fundAgentJob({ jobId });
    } catch (error) {
      if (!permanentFailureType(error)) throw error;
      job = await failAgentJob({ jobId, reason: error instanceof Error && error.cause instanceof Error ? error.cause.message : 'escrow call reverted' });
    }
    status = job.status;
  }

  let waitForEventOnly = false;
  while (!FINAL.includes(status)) {
    const expiresAtMs = job.expiresAtMs;
    const woken = waitForEventOnly || expiresAtMs === null
      ? (await condition(() => escrowEvents.length > 0), true)
      : await condition(() => escrowEvents.length > 0, Math.max(1000, expiresAtMs - Date.now()));
    const event = escrowEvents.shift();
    if (woken && event) {
      job = await applyAgentJobEscrowEvent({ jobId, event });
    } else {
      const claimed = await claimAgentJobRefund({ jobId });
      waitForEventOnly = claimed.settledElsewhere;
      job = claimed;
    }
    status = job.status;
  }
  return status;
}
