// The transactions of one payment session as the API shows them: every relayed payment (failed
// tries included), every transfer into its deposit address and the sweep forwarding it, every
// refund; each with its finality in the mode's confirmations. Answers "what happened on chain".
import type { DepositTransactionRow, RefundTransactionRow, RelayTransactionRow } from './transactions-repo.js';
import type { PaymentSessionTransaction } from './schemas.js';

/** The finality of one chain; a session's transactions may be on several. */
export type Finality = {
  /** Confirmations the mode's chain needs. */
  required: number;
  /** The indexer's last checkpoint: the newest block it read with `required` confirmations (null before its first pass). */
  safeBlock: bigint | null;
};

/**
 * Confirmations of a transaction in `block`, at least: the indexer's checkpoint is `required - 1`
 * blocks below the head it saw, so a block at or below it has `safeBlock - block + required`.
 */
function confirmationsOf(block: string | null, finality: Finality, tracked = 0): number | null {
  if (block === null) return null;
  const fromCheckpoint = finality.safeBlock === null ? 0 : Number(finality.safeBlock - BigInt(block)) + finality.required;
  return Math.max(tracked, fromCheckpoint, 0);
}

const base = { object: 'payment_session_transaction' as const, late: false, failureCode: null, failureReason: null };

function relayed(row: RelayTransactionRow, finality: Finality): PaymentSessionTransaction {
  return {
    ...base,
    kind: 'payment',
    chainId: Number(row.chainId),
    sourceId: row.id,
    status: row.status,
    transactionHash: row.transactionHash,
    blockNumber: row.blockNumber,
    confirmations: confirmationsOf(row.blockNumber, finality, row.confirmations),
    requiredConfirmations: finality.required,
    from: row.from,
    to: row.to,
    amount: row.amount,
    failureCode: row.failureCode,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.status === 'confirmed' ? row.updatedAt.toISOString() : null,
  };
}

const DEPOSIT_STATUS = { pending: 'submitted', credited: 'confirmed', late: 'confirmed', removed: 'removed' } as const;

function deposited(row: DepositTransactionRow, finality: Finality): PaymentSessionTransaction {
  return {
    ...base,
    kind: 'deposit',
    chainId: Number(row.chainId),
    sourceId: row.id,
    status: DEPOSIT_STATUS[row.status],
    transactionHash: row.transactionHash,
    blockNumber: row.blockNumber,
    confirmations: row.status === 'removed' ? 0 : confirmationsOf(row.blockNumber, finality),
    requiredConfirmations: finality.required,
    from: row.from,
    to: row.to,
    amount: row.amount,
    late: row.status === 'late' || (row.unacceptedChain && row.status !== 'removed'),
    createdAt: row.createdAt.toISOString(),
    // The indexer records a transfer only once it has the confirmations.
    confirmedAt: row.status === 'credited' || row.status === 'late' ? row.createdAt.toISOString() : null,
  };
}

/** The sweep of a deposit, once it is in a batch (its block is not recorded: confirmations unknown). */
function swept(row: DepositTransactionRow, finality: Finality): PaymentSessionTransaction | null {
  if (!row.sweepPurpose) return null;
  const failed = row.sweepOutcome === 'reverted' || row.sweepOutcome === 'dropped';
  return {
    ...base,
    kind: 'sweep',
    chainId: Number(row.chainId),
    sourceId: row.id,
    status: row.sweptAt ? 'confirmed' : failed ? 'failed' : row.sweepSentHash ? 'submitted' : 'pending',
    transactionHash: row.sweepTransactionHash ?? row.sweepSentHash,
    blockNumber: null,
    confirmations: null,
    requiredConfirmations: finality.required,
    from: row.to,
    to: row.payoutAddress,
    amount: row.amount,
    failureCode: failed ? `sweep_${row.sweepOutcome}` : null,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.sweptAt?.toISOString() ?? null,
  };
}

const REFUND_STATUS = {
  requires_action: 'pending',
  pending: 'pending',
  processing: 'submitted',
  succeeded: 'confirmed',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;

function refunded(row: RefundTransactionRow, finality: Finality): PaymentSessionTransaction {
  return {
    ...base,
    kind: 'refund',
    chainId: Number(row.chainId),
    sourceId: row.id,
    status: REFUND_STATUS[row.status],
    transactionHash: row.transactionHash,
    blockNumber: row.blockNumber,
    confirmations: confirmationsOf(row.blockNumber, finality),
    requiredConfirmations: finality.required,
    from: row.from,
    to: row.to,
    amount: row.amount,
    failureCode: row.failureCode,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.succeededAt?.toISOString() ?? null,
  };
}

export function renderSessionTransactions(
  rows: { relay: RelayTransactionRow[]; deposits: DepositTransactionRow[]; refunds: RefundTransactionRow[] },
  finalityOf: (chainId: string) => Finality,
): PaymentSessionTransaction[] {
  const all = [
    ...rows.relay.map((row) => relayed(row, finalityOf(row.chainId))),
    ...rows.deposits.flatMap((row) =>
      [deposited(row, finalityOf(row.chainId)), swept(row, finalityOf(row.chainId))].filter(
        (t): t is PaymentSessionTransaction => t !== null,
      ),
    ),
    ...rows.refunds.map((row) => refunded(row, finalityOf(row.chainId))),
  ];
  // Oldest first; a sweep shares its deposit's time and follows it (the sort is stable).
  return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
