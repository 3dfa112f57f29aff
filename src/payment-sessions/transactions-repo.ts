// SQL for the transactions of one payment session: the relay submissions that paid (or tried to
// pay) it, the transfers into its deposit address and their sweeps, and its refunds.
import type { Db } from '../db/client.js';

export type RelayTransactionRow = {
  id: string;
  chainId: string;
  status: 'pending' | 'submitted' | 'confirmed' | 'failed';
  transactionHash: string | null;
  blockNumber: string | null;
  confirmations: number;
  from: string | null;
  to: string | null;
  amount: string | null;
  failureCode: string | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type DepositTransactionRow = {
  id: string;
  chainId: string;
  /** The session does not accept the deposit's chain: it is late however early it came. */
  unacceptedChain: boolean;
  status: 'pending' | 'credited' | 'late' | 'removed';
  transactionHash: string;
  blockNumber: string;
  from: string;
  to: string;
  amount: string;
  payoutAddress: string;
  sweepPurpose: string | null;
  sweepTransactionHash: string | null;
  sweepOutcome: 'success' | 'reverted' | 'dropped' | null;
  sweepSentHash: string | null;
  sweptAt: Date | null;
  createdAt: Date;
};

export type RefundTransactionRow = {
  id: string;
  chainId: string;
  status: 'requires_action' | 'pending' | 'processing' | 'succeeded' | 'failed' | 'cancelled';
  transactionHash: string | null;
  blockNumber: string | null;
  from: string;
  /** Null while the refund waits for the customer's claim. */
  to: string | null;
  amount: string;
  failureCode: string | null;
  failureReason: string | null;
  succeededAt: Date | null;
  failedAt: Date | null;
  createdAt: Date;
};

/** Relay submissions of the session (linked either way: the session's own or one naming it). */
export async function relaySubmissionsOf(
  db: Db,
  session: { id: string; relaySubmissionId: string | null },
): Promise<RelayTransactionRow[]> {
  return db<RelayTransactionRow[]>`
    select r.id, r.chain_id::text as "chainId", r.status, r.transaction_hash as "transactionHash", r.block_number::text as "blockNumber", r.confirmations,
           r.call->>'from' as "from", r.call->>'to' as "to", r.call->>'value' as amount,
           r.failure_code as "failureCode", r.failure_reason as "failureReason", r.created_at as "createdAt", r.updated_at as "updatedAt"
    from relay_submissions r
    where r.kind = 'payment' and (r.payment_session_id = ${session.id} or r.id = ${session.relaySubmissionId})
    order by r.created_at, r.id`;
}

/** Transfers into the session's deposit address, each with the sweep that forwards it (its ledger row, if sent). */
export async function depositsOf(db: Db, sessionId: string): Promise<DepositTransactionRow[]> {
  return db<DepositTransactionRow[]>`
    select d.id, d.chain_id::text as "chainId", d.status,
           not coalesce(s.accepted_chains @> jsonb_build_array(jsonb_build_object('chainId', d.chain_id)), s.chain_id = d.chain_id)
             as "unacceptedChain", d.transaction_hash as "transactionHash", d.block_number::text as "blockNumber", d.from_address as "from",
           d.deposit_address as "to", d.amount::text as amount, d.payout_address as "payoutAddress", d.sweep_purpose as "sweepPurpose",
           d.sweep_transaction_hash as "sweepTransactionHash", sweep.outcome as "sweepOutcome", sweep.transaction_hash as "sweepSentHash",
           d.swept_at as "sweptAt", d.created_at as "createdAt"
    from deposits d
    join payment_sessions s on s.id = d.payment_session_id
    left join lateral (
      select c.outcome, c.transaction_hash from chain_transactions c
      where c.chain_id = d.chain_id and c.purpose = d.sweep_purpose
      order by c.id desc limit 1
    ) sweep on true
    where d.payment_session_id = ${sessionId}
    order by d.block_number, d.log_index`;
}

export async function refundsOf(db: Db, sessionId: string): Promise<RefundTransactionRow[]> {
  return db<RefundTransactionRow[]>`
    select id, chain_id::text as "chainId", status, transaction_hash as "transactionHash", block_number::text as "blockNumber", from_address as "from",
           to_address as "to", amount::text as amount, failure_code as "failureCode", failure_reason as "failureReason",
           succeeded_at as "succeededAt", failed_at as "failedAt", created_at as "createdAt"
    from refunds
    where payment_session_id = ${sessionId}
    order by created_at, id`;
}

/** The last block the indexer of this chain and mode has read with its confirmations (head minus confirmations plus one). */
export async function indexedSafeBlock(db: Db, chainId: string, livemode: boolean): Promise<bigint | null> {
  const [row] = await db<{ blockNumber: string }[]>`
    select block_number::text as "blockNumber" from indexer_checkpoints where chain_id = ${chainId} and livemode = ${livemode}`;
  return row ? BigInt(row.blockNumber) : null;
}
