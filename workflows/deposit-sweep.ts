// depositSweepWorkflow: one per deposit (workflow id from the deposit's id), started by the indexer
// when a transfer into a deposit address is recorded. Moves the deposit to the merchant's payout
// address exactly once: the operator sends one factory transaction that deploys the forwarder (when
// it has no code yet) and sweeps it, for every deposit waiting at that moment (a batch), under a
// purpose in the transaction ledger, so a retried or restarted step follows the transaction already
// sent instead of sending another. A failed sweep lets its deposits go and is tried again. A deposit
// whose payout the token refuses (version 2 sweeps report it) waits and is looked at again.
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { CHAIN_ACTIVITY, DATABASE_ACTIVITY } from './options.js';

const { sendDepositSweep } = proxyActivities<Activities>(DATABASE_ACTIVITY);
const { settleDepositSweep } = proxyActivities<Activities>({ ...CHAIN_ACTIVITY, startToCloseTimeout: '10 minutes' });

export type DepositSweepInput = { depositId: string };
export type DepositSweepOutcome = 'swept' | 'removed' | 'not_found';

export const depositSweepWorkflowId = (depositId: string): string => `deposit-sweep_${depositId}`;

export async function depositSweepWorkflow({ depositId }: DepositSweepInput): Promise<DepositSweepOutcome> {
  for (;;) {
    const step = await sendDepositSweep(depositId);
    if (step.kind === 'done') return step.outcome;
    // Only a v2 session's deposit is ever blocked.
    if (step.kind === 'blocked') {
      await sleep(step.recheckAfterMs);
      continue;
    }
    const outcome = await settleDepositSweep(step.purpose);
    // Reverted or dropped: its deposits were let go; the next attempt claims them again.
    if (outcome !== 'success') await sleep('5 seconds');
  }
}
