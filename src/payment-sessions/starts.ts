// The start of a payment session's workflow, queued in the transaction that creates the session.
import { paymentSessionWorkflow, paymentSessionWorkflowId } from '../../workflows/payment-session.js';
import { type WorkflowStart, workflowStart } from '../temporal/start-outbox.js';
import { CHAIN_ID_NOT_YET_KNOWN } from '../temporal/search-attributes.js';
import type { WorkflowTags } from '../temporal/workflow-tags.js';
import * as repo from './repo.js';

type SessionKey = Pick<repo.PaymentSessionRow, 'id' | 'expiresAt' | 'merchantId' | 'livemode' | 'status'> & {
  testClockId?: string | null;
} & Partial<Pick<repo.PaymentSessionRow, 'chainId' | 'token' | 'acceptedChains'>>;

/**
 * The run's ChainId at start: the one chain a session accepts, else not yet known (the run upserts the chain that
 * paid it, workflows/payment-session.ts). A start that does not know the session's chains (an invoice's void) sets none.
 */
function sessionChainIdTag(row: SessionKey): number | undefined {
  if (row.chainId === undefined || row.token === undefined) return undefined;
  const accepted = repo.acceptedChainsOf({ chainId: row.chainId, token: row.token, acceptedChains: row.acceptedChains ?? null });
  return accepted.length === 1 ? accepted[0]!.chainId : CHAIN_ID_NOT_YET_KNOWN;
}

/** The run of a session's workflow: its id and input. */
export function paymentSessionWorkflowRun(
  taskQueue: string,
  row: SessionKey,
): { workflowId: string; taskQueue: string; args: Parameters<typeof paymentSessionWorkflow>; tags: WorkflowTags } {
  return {
    workflowId: paymentSessionWorkflowId(row.id),
    taskQueue,
    // The input names a test clock only when there is one: runs off a clock start as before clocks.
    args: [{ sessionId: row.id, expiresAt: row.expiresAt.toISOString(), ...(row.testClockId ? { testClockId: row.testClockId } : {}) }],
    tags: {
      merchantId: row.merchantId,
      livemode: row.livemode,
      object: 'payment_session',
      objectId: row.id,
      businessStatus: row.status,
      ...tagOf(sessionChainIdTag(row)),
    },
  };
}

/** The start of the session's workflow, queued in the transaction that creates the session (src/temporal/start-outbox.ts). */
export function paymentSessionWorkflowStart(taskQueue: string, row: SessionKey): WorkflowStart {
  return workflowStart(paymentSessionWorkflow, paymentSessionWorkflowRun(taskQueue, row));
}

const tagOf = (chainId: number | undefined): { chainId?: number } => (chainId === undefined ? {} : { chainId });
