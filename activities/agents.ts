// Activities of agentJobWorkflow (ERC-8183 escrow jobs). Each is idempotent on
// the job id: every status change is a conditional UPDATE from the expected
// statuses, its activity record carries a once-only action key and its events
// are written in the same transaction; every escrow call goes through the one
// transaction sender under a purpose key (src/agents/escrow.ts), so a retried
// activity follows the transaction its predecessor recorded and never sends a
// second one.
import { Context } from '@temporalio/activity';
import { getAddress, keccak256, toBytes, zeroHash } from 'viem';
import {
  agentWalletAccount,
  createEscrowClient,
  escrowPurpose,
  onchainJobIdOf,
  readEscrowJob,
  type EscrowCallResult,
  type EscrowEventSignal,
} from '../src/agents/escrow.js';
import * as repo from '../src/agents/repo.js';
import type { JobStatus, SettleRequest } from '../src/agents/schemas.js';
import { formatUnits6, recordAgentAction, renderJob } from '../src/agents/service.js';
import { chainsOf, type ChainConfig } from '../src/chain/config.js';
import { describeRefusal, retryOf } from '../src/chain/refusals.js';
import { isPaused } from '../src/chain/token-standing.js';
import { findLivePurpose } from '../src/chain/ledger-repo.js';
import { DEV_SECRETS_KEY } from '../src/config.js';
import type { Db, Sql } from '../src/db/client.js';
import type { EventDispatcher } from '../src/events/dispatch.js';
import { recordEvent } from '../src/events/outbox.js';
import { createSecretBox } from '../src/security/encryption.js';
import { PERMANENT_FAILURES, permanentFailure } from '../src/temporal/failures.js';

export type AgentActivityDeps = {
  sql: Sql;
  chain?: ChainConfig;
  /** SECRETS_ENCRYPTION_KEY, which seals agent wallet keys (the development key when absent). */
  secretsEncryptionKey?: Buffer;
  /** Wakes the event dispatcher for recorded events (the outbox sweep catches a failed wake-up). */
  events: EventDispatcher;
};

/** What the workflow needs to know of its job (times as epoch milliseconds). */
export type AgentJobState = { status: JobStatus; approvalDeadlineMs: number; expiresAtMs: number | null };

export const FINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'rejected', 'disputed', 'expired', 'failed'];

function stateOf(row: repo.JobRow): AgentJobState {
  return { status: row.status, approvalDeadlineMs: row.approvalDeadline.getTime(), expiresAtMs: row.expiredAt?.getTime() ?? null };
}

/** Heartbeats while `work` runs (chain waits), when running as an activity. */
async function heartbeating<T>(work: () => Promise<T>): Promise<T> {
  let context: Context | undefined;
  try {
    context = Context.current();
  } catch {
    context = undefined;
  }
  context?.heartbeat();
  const timer = context ? setInterval(() => context.heartbeat(), 2_000) : undefined;
  try {
    return await work();
  } finally {
    if (timer) clearInterval(timer);
  }
}

export function createAgentActivities(deps: AgentActivityDeps) {
  const { sql, events } = deps;
  const secretBox = createSecretBox(deps.secretsEncryptionKey ?? DEV_SECRETS_KEY);

  async function load(db: Db, jobId: string): Promise<repo.JobRow> {
    const row = await repo.findJobById(db, jobId);
    if (!row) throw permanentFailure(PERMANENT_FAILURES.agentJobNotFound, `agent job ${jobId} does not exist`);
    return row;
  }

  async function dispatch(eventIds: readonly (string | undefined)[]): Promise<void> {
    await events.dispatch(
      sql,
      eventIds.filter((id): id is string => id !== undefined),
    );
  }

  /** The chain the job's escrow runs on (chosen at creation; jobs created before that run on the mode's first chain). */
  function settingsOf(row: repo.JobRow) {
    const chains = chainsOf(deps.chain ?? {}, row.livemode);
    const settings = row.chainId === null ? chains[0] : chains.find((chain) => chain.chainId === row.chainId);
    if (!settings) {
      const mode = row.livemode ? 'live' : 'test';
      throw permanentFailure(
        PERMANENT_FAILURES.contractRevertedFinal,
        row.chainId === null ? `${mode} mode has no chain configured` : `chain ${row.chainId} is no longer a ${mode} mode chain`,
      );
    }
    return settings;
  }

  const amountText = (row: repo.JobRow) => `${formatUnits6(row.amount)} ${row.currency}`;

  /** Applies one escrow event (the indexer's, or the agent wallet's own settle call); a repeat changes nothing. */
  async function applyEscrowEvent(input: { jobId: string; event: EscrowEventSignal }): Promise<AgentJobState> {
    const { event } = input;
    const hash = event.transactionHash;
    const { row, eventIds } = await sql.begin(async (tx) => {
      const job = await load(tx, input.jobId);
      const scope = { merchantId: job.merchantId, livemode: job.livemode };
      const action = (
        changed: repo.JobRow,
        actionType: 'job_submitted' | 'job_completed' | 'job_rejected' | 'job_disputed' | 'job_refunded',
        summary: string,
      ) =>
        recordAgentAction(tx, {
          ...scope,
          capability: 'commerce',
          actionType,
          outcome: 'succeeded',
          summary,
          actionKey: `job:${changed.id}:${actionType}`,
          jobId: changed.id,
          transactionId: hash,
        });
      switch (event.eventName) {
        case 'JobSubmitted': {
          const changed = await repo.transitionJob(tx, job.id, ['funded'], 'submitted', {
            submittedAt: true,
            submitTransactionHash: hash,
            ...(event.deliverable ? { deliverable: event.deliverable } : {}),
          });
          if (!changed) return { row: job, eventIds: [] };
          return {
            row: changed,
            eventIds: [await action(changed, 'job_submitted', `Vendor ${changed.vendorAddress} submitted the work of job ${changed.id}.`)],
          };
        }
        case 'JobCompleted': {
          const changed = await repo.transitionJob(tx, job.id, ['funded', 'submitted'], 'completed', {
            finishedAt: true,
            settleTransactionHash: hash,
          });
          if (!changed) return { row: job, eventIds: [] };
          const completed = await recordEvent(tx, { ...scope, type: 'agent.job_completed', data: { object: renderJob(changed) } });
          return {
            row: changed,
            eventIds: [
              completed.id,
              await action(
                changed,
                'job_completed',
                `Job ${changed.id} completed: ${amountText(changed)} released to ${changed.vendorAddress}.`,
              ),
            ],
          };
        }
        case 'JobRejected': {
          if (job.status === 'submitted') {
            const changed = await repo.transitionJob(tx, job.id, ['submitted'], 'disputed', {
              finishedAt: true,
              settleTransactionHash: hash,
            });
            if (!changed) return { row: job, eventIds: [] };
            const disputed = await recordEvent(tx, { ...scope, type: 'agent.job_disputed', data: { object: renderJob(changed) } });
            return {
              row: changed,
              eventIds: [
                disputed.id,
                await action(
                  changed,
                  'job_disputed',
                  `Job ${changed.id} disputed: the evaluator rejected the submitted work; ${amountText(changed)} refunded to the agent wallet.`,
                ),
              ],
            };
          }
          const changed = await repo.transitionJob(tx, job.id, ['funded'], 'rejected', { finishedAt: true, settleTransactionHash: hash });
          if (!changed) return { row: job, eventIds: [] };
          return {
            row: changed,
            eventIds: [
              await action(
                changed,
                'job_rejected',
                `Job ${changed.id} rejected before submission; ${amountText(changed)} refunded to the agent wallet.`,
              ),
            ],
          };
        }
        case 'JobExpired': {
          const changed = await repo.transitionJob(tx, job.id, ['funded', 'submitted'], 'expired', {
            finishedAt: true,
            refundTransactionHash: hash,
          });
          if (!changed) return { row: job, eventIds: [] };
          return {
            row: changed,
            eventIds: [
              await action(
                changed,
                'job_refunded',
                `Job ${changed.id} expired on-chain; ${amountText(changed)} refunded to the agent wallet.`,
              ),
            ],
          };
        }
      }
    });
    await dispatch(eventIds);
    return stateOf(row);
  }

  return {
    async loadAgentJob(input: { jobId: string }): Promise<AgentJobState | null> {
      const row = await repo.findJobById(sql, input.jobId);
      return row ? stateOf(row) : null;
    },

    /** proposed -> expired when nobody approved it in time; the job's state either way (an approval that won the race stands). */
    async expireAgentJobProposal(input: { jobId: string }): Promise<AgentJobState> {
      const { row, eventId } = await sql.begin(async (tx) => {
        const expired = await repo.transitionJob(tx, input.jobId, ['proposed'], 'expired', {
          finishedAt: true,
          failureReason: 'not approved before approvalDeadline',
        });
        if (!expired) return { row: await load(tx, input.jobId), eventId: undefined };
        const eventId = await recordAgentAction(tx, {
          merchantId: expired.merchantId,
          livemode: expired.livemode,
          capability: 'commerce',
          actionType: 'job_expired',
          outcome: 'failed',
          summary: `Job ${expired.id} for ${amountText(expired)} expired: nobody approved it before ${expired.approvalDeadline.toISOString()}.`,
          actionKey: `job:${expired.id}:proposal_expired`,
          jobId: expired.id,
        });
        return { row: expired, eventId };
      });
      await dispatch([eventId]);
      return stateOf(row);
    },

    /**
     * approved -> funded: creates the job on the escrow (the vendor as provider), sets its budget and
     * funds it from the agent wallet. Each step is skipped when the chain already shows it, and each
     * transaction is recorded under its purpose before it is sent, so a retry after a crash at any
     * point sends nothing twice. A revert (e.g. the wallet holds too little) is permanent.
     */
    async fundAgentJob(input: { jobId: string }): Promise<AgentJobState> {
      let row = await load(sql, input.jobId);
      if (row.status !== 'approved') return stateOf(row);
      const settings = settingsOf(row);
      const account = await agentWalletAccount(sql, secretBox, row);
      const escrow = createEscrowClient({ sql, settings, account });
      const amount = BigInt(row.amount);
      /**
       * A call that did not succeed. The token's refusal is named: a pause (retry later) is a plain
       * error the activity retries until the issuer resumes; any other refusal (blacklist, funds) fails
       * the job with its code, kept on the row for failAgentJob.
       */
      const notDone = async (step: string, result: EscrowCallResult) => {
        const refusal = result.outcome === 'reverted' ? result.refusal : undefined;
        if (!refusal) return permanentFailure(PERMANENT_FAILURES.contractRevertedFinal, `escrow ${step} of job ${row.id} reverted`);
        if (retryOf(refusal.code) === 'later')
          return new Error(`escrow ${step} of job ${row.id} refused (${refusal.code}): ${refusal.reason}`);
        await repo.recordJobRefusal(sql, row.id, refusal.code);
        return permanentFailure(
          PERMANENT_FAILURES.contractRevertedFinal,
          `The token refused the escrow ${step} (${refusal.code}): ${refusal.reason}`,
        );
      };
      // A paused token refuses approve and fund whatever is signed: wait (the activity retries) without sending.
      const unlessPaused = async () => {
        if (await isPaused(escrow.client, settings.token))
          throw new Error(`job ${row.id} waits: token_paused: ${describeRefusal('token_paused')}`);
      };

      return heartbeating(async () => {
        if (row.onchainJobId === null) {
          const head = await escrow.client.getBlock({ blockTag: 'latest' });
          const created = await escrow.createJob(row.id, {
            provider: getAddress(row.vendorAddress),
            evaluator: getAddress(row.evaluatorAddress),
            expiredAt: head.timestamp + BigInt(row.expiresInSeconds),
            description: row.description,
          });
          if (created.outcome !== 'success') throw await notDone('createJob', created);
          const onchainJobId = onchainJobIdOf(created.receipt, settings.escrow);
          const onchain = await readEscrowJob(escrow.client, settings.escrow, onchainJobId);
          row = await repo.recordOnchainJob(sql, row.id, {
            chainId: settings.chainId,
            escrowAddress: settings.escrow,
            onchainJobId: onchainJobId.toString(),
            expiredAt: new Date(Number(onchain.expiredAt) * 1000),
            createTransactionHash: created.receipt.transactionHash,
          });
        }
        const onchainJobId = BigInt(row.onchainJobId!);
        let onchain = await readEscrowJob(escrow.client, settings.escrow, onchainJobId);
        let fundHash: string | null = row.fundTransactionHash;
        if (onchain.statusName === 'Open') {
          if (onchain.budget !== amount) {
            const budget = await escrow.setBudget(row.id, onchainJobId, amount);
            if (budget.outcome !== 'success') throw await notDone('setBudget', budget);
          }
          await unlessPaused();
          const allowance = await escrow.ensureAllowance(amount);
          if (allowance && allowance.outcome !== 'success') throw await notDone('approve', allowance);
          const funded = await escrow.fund(row.id, onchainJobId, amount);
          if (funded.outcome !== 'success') throw await notDone('fund', funded);
          fundHash = funded.receipt.transactionHash;
          onchain = await readEscrowJob(escrow.client, settings.escrow, onchainJobId);
        }
        if (onchain.statusName === 'Open') throw new Error(`escrow job ${onchainJobId} is not funded yet`);
        // Funded by an earlier attempt that died before recording it: the ledger has its transaction.
        fundHash ??=
          (await findLivePurpose(sql, settings.chainId, escrowPurpose(settings.escrow, row.id, 'fund')))?.transactionHash ?? null;
        const { state, eventId } = await sql.begin(async (tx) => {
          const funded = await repo.transitionJob(tx, row.id, ['approved'], 'funded', {
            fundedAt: true,
            ...(fundHash ? { fundTransactionHash: fundHash } : {}),
          });
          if (!funded) return { state: stateOf(await load(tx, row.id)), eventId: undefined };
          const eventId = await recordAgentAction(tx, {
            merchantId: funded.merchantId,
            livemode: funded.livemode,
            capability: 'commerce',
            actionType: 'job_funded',
            outcome: 'succeeded',
            summary: `Escrow job #${funded.onchainJobId} funded with ${amountText(funded)} for ${funded.vendorAddress}.`,
            actionKey: `job:${funded.id}:funded`,
            jobId: funded.id,
            transactionId: fundHash,
          });
          return { state: stateOf(funded), eventId };
        });
        await dispatch([eventId]);
        return state;
      });
    },

    /** approved -> failed after a permanent funding failure (nothing was escrowed). */
    async failAgentJob(input: { jobId: string; reason: string }): Promise<AgentJobState> {
      const { row, eventIds } = await sql.begin(async (tx) => {
        const failed = await repo.transitionJob(tx, input.jobId, ['approved'], 'failed', {
          finishedAt: true,
          failureReason: input.reason.slice(0, 500),
        });
        if (!failed) return { row: await load(tx, input.jobId), eventIds: [] };
        const jobFailed = await recordEvent(tx, {
          merchantId: failed.merchantId,
          livemode: failed.livemode,
          type: 'agent.job_failed',
          data: { object: renderJob(failed) },
        });
        const actionId = await recordAgentAction(tx, {
          merchantId: failed.merchantId,
          livemode: failed.livemode,
          capability: 'commerce',
          actionType: 'job_failed',
          outcome: 'failed',
          summary: `Job ${failed.id} for ${amountText(failed)} could not be funded: ${input.reason.slice(0, 200)}`,
          actionKey: `job:${failed.id}:failed`,
          jobId: failed.id,
        });
        return { row: failed, eventIds: [jobFailed.id, actionId] };
      });
      await dispatch(eventIds);
      return stateOf(row);
    },

    /** Applies one confirmed escrow event (from the indexer, through the workflow's signal); a repeat changes nothing. */
    applyAgentJobEscrowEvent: applyEscrowEvent,

    /**
     * The evaluator API's decision, sent from the agent wallet (the job's evaluator): the escrow's
     * `complete` or `reject` under its own purpose (a retry follows the recorded transaction, never
     * sends a second), then the transition the indexer's event would make (that event, arriving
     * later, changes nothing). A job whose status no longer allows the decision (the vendor or the
     * deadline came first) is answered as it is; so is a call that reverted or was dropped: what the
     * chain did instead reaches the workflow through the indexer.
     */
    async settleAgentJob(input: { jobId: string } & SettleRequest): Promise<AgentJobState> {
      const row = await load(sql, input.jobId);
      const allowed: readonly JobStatus[] = input.decision === 'complete' ? ['submitted'] : ['funded', 'submitted'];
      if (!allowed.includes(row.status) || row.onchainJobId === null) return stateOf(row);
      const settings = settingsOf(row);
      const account = await agentWalletAccount(sql, secretBox, row);
      if (account.address.toLowerCase() !== row.evaluatorAddress.toLowerCase()) return stateOf(row);
      const escrow = createEscrowClient({ sql, settings, account });
      const reason = input.reason ? keccak256(toBytes(input.reason)) : zeroHash;
      return heartbeating(async () => {
        const sent = await escrow.settle(row.id, BigInt(row.onchainJobId!), input.decision, reason);
        if (sent.outcome !== 'success') return stateOf(await load(sql, row.id));
        const log = sent.receipt.logs.find((l) => l.address.toLowerCase() === settings.escrow.toLowerCase());
        return applyEscrowEvent({
          jobId: row.id,
          event: {
            eventName: input.decision === 'complete' ? 'JobCompleted' : 'JobRejected',
            transactionHash: sent.receipt.transactionHash,
            logIndex: log?.logIndex ?? 0,
          },
        });
      });
    },

    /**
     * After the on-chain deadline: claims the refund of a funded or submitted escrow (claimRefund,
     * one purpose per job) and records funded | submitted -> expired. Before the chain's clock
     * reached the deadline it fails and is retried. `settledElsewhere` when the chain shows the job
     * completed or rejected: its event is on its way through the indexer.
     */
    async claimAgentJobRefund(input: { jobId: string }): Promise<AgentJobState & { settledElsewhere: boolean }> {
      const row = await load(sql, input.jobId);
      if (FINAL_JOB_STATUSES.includes(row.status) || row.onchainJobId === null) return { ...stateOf(row), settledElsewhere: false };
      const settings = settingsOf(row);
      const account = await agentWalletAccount(sql, secretBox, row);
      const escrow = createEscrowClient({ sql, settings, account });
      const onchainJobId = BigInt(row.onchainJobId);
      return heartbeating(async () => {
        let onchain = await readEscrowJob(escrow.client, settings.escrow, onchainJobId);
        let refundHash: string | undefined;
        if (onchain.statusName === 'Funded' || onchain.statusName === 'Submitted') {
          const head = await escrow.client.getBlock({ blockTag: 'latest' });
          if (head.timestamp < onchain.expiredAt)
            throw new Error(`escrow job ${onchainJobId} expires at ${onchain.expiredAt}; the chain is at ${head.timestamp}`);
          const refund = await escrow.claimRefund(row.id, onchainJobId);
          if (refund.outcome === 'success') refundHash = refund.receipt.transactionHash;
          // Refused by the token (e.g. paused): retried by the activity, with the reason named.
          if (refund.outcome === 'reverted' && refund.refusal)
            throw new Error(`claimRefund of escrow job ${onchainJobId} refused (${refund.refusal.code}): ${refund.refusal.reason}`);
          onchain = await readEscrowJob(escrow.client, settings.escrow, onchainJobId);
        }
        if (onchain.statusName !== 'Expired') {
          if (onchain.statusName === 'Funded' || onchain.statusName === 'Submitted')
            throw new Error(`escrow job ${onchainJobId} is still ${onchain.statusName}`);
          return { ...stateOf(row), settledElsewhere: true };
        }
        const { state, eventId } = await sql.begin(async (tx) => {
          const changed = await repo.transitionJob(tx, row.id, ['funded', 'submitted'], 'expired', {
            finishedAt: true,
            ...(refundHash ? { refundTransactionHash: refundHash } : {}),
          });
          if (!changed) return { state: stateOf(await load(tx, row.id)), eventId: undefined };
          const eventId = await recordAgentAction(tx, {
            merchantId: changed.merchantId,
            livemode: changed.livemode,
            capability: 'commerce',
            actionType: 'job_refunded',
            outcome: 'succeeded',
            summary: `Job ${changed.id} expired on-chain; ${amountText(changed)} refunded to the agent wallet.`,
            actionKey: `job:${changed.id}:job_refunded`,
            jobId: changed.id,
            transactionId: refundHash ?? null,
          });
          return { state: stateOf(changed), eventId };
        });
        await dispatch([eventId]);
        return { ...state, settledElsewhere: false };
      });
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
