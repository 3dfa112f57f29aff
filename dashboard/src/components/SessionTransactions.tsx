// The on-chain transactions of a payment session (GET /v1/payment-sessions/{id}/transactions) as
// timeline entries: relayed payments (failed tries too), deposits and their sweeps, refunds; each
// with its hash, explorer link, confirmations against what the mode requires, and why it failed.
import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import { formatAmount } from '../format.ts';
import type { SessionTransaction } from '../types.ts';
import type { TimelineEntry } from './Timeline.tsx';
import { TxHash } from './TxHash.tsx';
import { FailureNote } from './FailureNote.tsx';

/** The session's transactions; `version` reloads them (after a refund, say). */
export function useSessionTransactions(
  sessionId: string,
  version: unknown,
): { transactions: SessionTransaction[]; loaded: boolean; error: unknown } {
  const [state, setState] = useState<{ transactions: SessionTransaction[]; loaded: boolean; error: unknown }>({
    transactions: [],
    loaded: false,
    error: null,
  });
  useEffect(() => {
    api.get<{ data: SessionTransaction[] }>(`/v1/payment-sessions/${encodeURIComponent(sessionId)}/transactions`).then(
      (list) => setState({ transactions: list.data, loaded: true, error: null }),
      (error: unknown) => setState({ transactions: [], loaded: true, error }),
    );
  }, [sessionId, version]);
  return state;
}

const WHAT: Record<SessionTransaction['kind'], string> = {
  payment: 'Payment transaction',
  deposit: 'Transfer to the deposit address',
  sweep: 'Deposit swept to the payout address',
  refund: 'Refund transaction',
};

const STATE: Record<SessionTransaction['status'], string> = {
  pending: 'accepted, not sent yet',
  submitted: 'sent, waiting for confirmations',
  confirmed: 'confirmed',
  failed: 'failed',
  removed: 'removed by a chain reorganisation',
  cancelled: 'cancelled',
};

export function transactionTitle(tx: SessionTransaction): string {
  return `${WHAT[tx.kind]} ${STATE[tx.status]}${tx.late ? ' (late: after the session ended, refundable)' : ''}`;
}

/** "15 confirmations (3 required): final", or "1 of 3 confirmations", or nothing when the block is unknown. */
export function finality(tx: SessionTransaction): string | null {
  if (tx.confirmations === null) return null;
  const final = tx.confirmations >= tx.requiredConfirmations;
  return final
    ? `${tx.confirmations} confirmation${tx.confirmations === 1 ? '' : 's'} (${tx.requiredConfirmations} required): final`
    : `${tx.confirmations} of ${tx.requiredConfirmations} confirmations`;
}

export function transactionEntries(transactions: SessionTransaction[], chainId: number, currency: string): TimelineEntry[] {
  return transactions.map((tx) => ({
    at: tx.confirmedAt ?? tx.createdAt,
    title: transactionTitle(tx),
    detail: (
      <div data-testid={`transaction-${tx.kind}`}>
        {tx.transactionHash ? (
          <TxHash hash={tx.transactionHash} chainId={tx.chainId ?? chainId} />
        ) : (
          <small className="hint">Not sent to the chain.</small>
        )}
        {tx.amount && (
          <div>
            {formatAmount(tx.amount, currency)}
            {tx.from && (
              <>
                {' '}
                from <code>{tx.from}</code>
              </>
            )}
            {tx.to && (
              <>
                {' '}
                to <code>{tx.to}</code>
              </>
            )}
          </div>
        )}
        {(finality(tx) || tx.blockNumber) && (
          <div>
            {tx.blockNumber && `Block ${tx.blockNumber}`}
            {tx.blockNumber && finality(tx) && ' · '}
            {finality(tx)}
          </div>
        )}
        {tx.failureCode && (
          <div className="tx-failure">
            <FailureNote code={tx.failureCode} reason={tx.failureReason} />
          </div>
        )}
      </div>
    ),
  }));
}
