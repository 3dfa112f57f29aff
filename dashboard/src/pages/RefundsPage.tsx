// Refunds: the list, and starting a refund of a payment (the API answers with
// the transfer the payout wallet must sign).
import { useState } from 'react';
import { api } from '../api.ts';
import { ActionForm, Field, optionalText, text } from '../components/Form.tsx';
import { CsvExport } from '../components/CsvExport.tsx';
import { Link } from '../components/Link.tsx';
import { metadataText } from '../components/Metadata.tsx';
import { useListFilters } from '../components/ListFilters.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { decimalAmount } from '../csv.ts';
import { detailPath } from '../router.ts';
import { RefundAllowance } from '../components/RefundAllowance.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { FailureNote } from '../components/FailureNote.tsx';
import { MoneyField } from '../components/MoneyField.tsx';
import { RefundNextStep } from '../components/RefundNextStep.tsx';
import { TxHash } from '../components/TxHash.tsx';
import { chainName } from '../chain.ts';
import { amountError, formatAmount, formatDate, parseAmount, shortId } from '../format.ts';
import type { Refund } from '../types.ts';

// The statuses the API declares (a value it never returns fails the type check).
const REFUND_STATUSES = [
  'requires_action',
  'pending',
  'processing',
  'succeeded',
  'failed',
  'cancelled',
] as const satisfies readonly Refund['status'][];

export function RefundsPage() {
  const [started, setStarted] = useState<Refund | null>(null);
  const [changes, setChanges] = useState(0);
  const filters = useListFilters(REFUND_STATUSES, undefined, { byNetwork: true, byMetadata: true });
  return (
    <>
      <RefundAllowance />
      <ActionForm
        title="Refund a payment"
        submitLabel="Start refund"
        action={async (form) => {
          const amountText = text(form, 'amount');
          const amount = amountText ? parseAmount(amountText) : undefined;
          if (amountText && !amount) throw new Error(`Amount: ${amountError(amountText)} Or leave it empty to refund everything left.`);
          setStarted(
            await api.post<Refund>('/v1/refunds', {
              paymentSessionId: text(form, 'paymentSessionId'),
              amount,
              reason: optionalText(form, 'reason'),
            }),
          );
        }}
      >
        <div className="grid">
          <Field label="Payment session id" name="paymentSessionId" required placeholder="ps_…" />
          <MoneyField label="Amount (USDC, empty = all)" name="amount" />
          <Field label="Reason" name="reason" maxLength={500} />
        </div>
      </ActionForm>
      {started && (
        <section className="card" aria-label="Refund instructions">
          <h2>Sign the refund transfer</h2>
          <p>Send this transaction from the payout wallet; the refund completes when it is confirmed on chain.</p>
          <pre className="json">{JSON.stringify(started, null, 2)}</pre>
        </section>
      )}
      {filters.element}
      <CsvExport<Refund>
        path="/v1/refunds"
        query={filters.query}
        filename="refunds"
        columns={[
          { header: 'id', value: (r) => r.id },
          { header: 'payment_session_id', value: (r) => r.paymentSessionId },
          { header: 'amount', value: (r) => decimalAmount(r.amount) },
          { header: 'currency', value: (r) => r.currency },
          { header: 'status', value: (r) => r.status },
          { header: 'chain_id', value: (r) => r.chainId },
          { header: 'reason', value: (r) => r.reason },
          { header: 'metadata', value: (r) => JSON.stringify(r.metadata) },
          { header: 'transaction_hash', value: (r) => r.transactionHash },
          { header: 'created_at', value: (r) => r.createdAt },
        ]}
      />
      <PaginatedTable<Refund>
        caption="Refunds"
        reloadKey={`${filters.key}|${started?.id ?? ''}|${changes}`}
        load={(cursor) => api.list<Refund>('/v1/refunds', cursor, filters.query)}
        columns={[
          { header: 'Refund', cell: (r) => <code>{shortId(r.id)}</code> },
          {
            header: 'Payment',
            cell: (r) => (
              <Link to={detailPath('payments', r.paymentSessionId)}>
                <code>{shortId(r.paymentSessionId)}</code>
              </Link>
            ),
          },
          { header: 'Amount', cell: (r) => formatAmount(r.amount, r.currency), className: 'num' },
          { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
          {
            header: 'Network',
            cell: (r) => (
              <>
                {chainName(r.chainId)}
                {r.transactionHash && (
                  <div>
                    <TxHash hash={r.transactionHash} chainId={r.chainId} compact />
                  </div>
                )}
              </>
            ),
          },
          { header: 'Reason', cell: (r) => r.reason ?? '—' },
          { header: 'Metadata', cell: (r) => metadataText(r.metadata), className: 'wrap' },
          { header: 'Failure', cell: (r) => <FailureNote code={r.failureCode} reason={r.failureReason} />, className: 'wrap' },
          {
            header: 'Recipient and next step',
            cell: (r) => <RefundNextStep refund={r} onChange={() => setChanges((n) => n + 1)} />,
            className: 'wrap',
          },
          { header: 'Created', cell: (r) => formatDate(r.createdAt) },
        ]}
        empty="No refunds match."
      />
    </>
  );
}
