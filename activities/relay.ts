// Activities of relaySubmissionWorkflow. Each is idempotent on the submission
// id: submit re-sends the recorded signed transaction when one exists, and
// following only reads the chain and records what it sees.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { withSafeChainErrors } from '../src/chain/clients.js';
import type { ChainConfig } from '../src/chain/config.js';
import type { Sql } from '../src/db/client.js';
import { checkSubmission, submitSubmission, type FollowResult, type Submitted } from '../src/relay/relayer.js';
import { findStaleOpenSubmissions, findSubmission } from '../src/relay/repo.js';
import { permanentFailure, PERMANENT_FAILURES } from '../src/temporal/failures.js';
import { startRelayWorkflow } from '../src/relay/starts.js';
import { createChainResolver } from '../src/test-clocks/chain-registry.js';
import { TASK_QUEUES } from '../src/temporal/task-queues.js';

/** How long the submit activity itself waits for a quick confirmation before handing over to the follow activity. */
const QUICK_FOLLOW_MS = 3000;

export type RelayActivityDeps = { sql: Sql; chain?: ChainConfig; temporal?: Client; taskQueue?: string };

export type RelayActivityInput = { submissionId: string; livemode: boolean };

/** Where the submit step left the submission; `paysSession`: it pays a payment session, which must hear its outcome. */
export type SubmitOutcome = { status: 'submitted' | 'failed' | 'confirmed'; paysSession: boolean };

export function createRelayActivities({ sql, chain = {}, temporal, taskQueue = TASK_QUEUES.main }: RelayActivityDeps) {
  /** The chains of the mode and the test clocks' forks (issue 39: the clock rows are their registry). */
  const chainOf = createChainResolver({ sql, config: chain });
  /** The chain the submission is on (issue 39: a mode may have several; the submission names its own). */
  async function settingsOf(submissionId: string, livemode: boolean) {
    const row = await findSubmission(sql, submissionId);
    return chainOf(livemode, row ? Number(row.chainId) : undefined);
  }

  async function submitAndLook({ submissionId, livemode }: RelayActivityInput): Promise<SubmitOutcome> {
    const settings = await settingsOf(submissionId, livemode);
    const result = await submitSubmission(sql, settings, submissionId);
    const paysSession = result.submission.paymentSessionId !== null;
    if (result.status === 'failed') return { status: 'failed', paysSession };
    // The first look starts from the rows the submit step holds; later ones read them afresh.
    let known: Submitted | undefined = result.status === 'submitted' ? result : undefined;
    const deadline = Date.now() + QUICK_FOLLOW_MS;
    for (;;) {
      const check = await checkSubmission(sql, settings, submissionId, known);
      known = undefined;
      if (check.status !== 'waiting') return { status: check.status, paysSession };
      if (Date.now() > deadline) return { status: 'submitted', paysSession };
      await sleep(Math.min(settings.pollIntervalMs, 100));
    }
  }

  async function follow({ submissionId, livemode }: RelayActivityInput): Promise<FollowResult> {
    const settings = await settingsOf(submissionId, livemode);
    const context = Context.current();
    for (;;) {
      const result = await checkSubmission(sql, settings, submissionId);
      if (result.status !== 'waiting') return result;
      context.heartbeat(result.confirmations);
      await sleep(settings.pollIntervalMs, undefined, { signal: context.cancellationSignal });
    }
  }

  /** A submission that does not exist can never be sent or followed (checked only after a failure: no cost on the hot path). */
  async function orNotFound<T>(submissionId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(await findSubmission(sql, submissionId))) {
        throw permanentFailure(PERMANENT_FAILURES.relaySubmissionNotFound, `relay submission ${submissionId} does not exist`);
      }
      throw error;
    }
  }

  return {
    /** Starts the workflow of open submissions idle for a while (their start was lost); returns how many it started. */
    async startStaleRelaySubmissions(input: { olderThanSeconds: number; limit: number }): Promise<number> {
      if (!temporal) return 0;
      let started = 0;
      for (const row of await findStaleOpenSubmissions(sql, input.olderThanSeconds, input.limit)) {
        if (await startRelayWorkflow(temporal, taskQueue, row)) started++;
      }
      return started;
    },

    /**
     * Simulates, allocates the relayer nonce, signs, records and sends; then looks for the receipt
     * for up to QUICK_FOLLOW_MS, so a transaction that confirms at once needs no follow activity.
     * Chain errors are rethrown without the RPC URL (it may embed a provider key).
     */
    async submitRelaySubmission(input: RelayActivityInput): Promise<SubmitOutcome> {
      return orNotFound(input.submissionId, () => withSafeChainErrors(() => submitAndLook(input)));
    },

    /** Follows the transaction to the required confirmations (heartbeats while it waits). */
    async awaitRelayConfirmation(input: RelayActivityInput): Promise<FollowResult> {
      return orNotFound(input.submissionId, () => withSafeChainErrors(() => follow(input)));
    },
  };
}

export type RelayActivities = ReturnType<typeof createRelayActivities>;
