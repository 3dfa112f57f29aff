// Refunds: the list, and starting a refund of a payment (the API answers with
// the transfer the payout wallet must sign).
import { useState } from 'react';
import { api } from '../api.ts';
import { ActionForm, Field, optionalText, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { RefundAllowance } from '../components/RefundAllowance.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { formatAmount, formatDate, parseAmount, shortId } from '../format.ts';
import type { Refund } from '../types.ts';

type RefundInstructions = { refund?: Refund; id?: string; from?: string; to?: string; amount?: string; transaction?: { to: string; data: string } };

export function RefundsPage() {
  const [started, setStarted] = useState<RefundInstructions | null>(null);
  return (
    <>
      <RefundAllowance />
      <ActionForm
        title="Refund a payment"
        submitLabel="Start refund"
        action={async (form) => {
          const amountText = text(form, 'amount');
          const amount = amountText ? parseAmount(amountText) : undefined;
          if (amountText && !amount) throw new Error('Enter the amount in USDC (at most 6 decimals), or leave it empty to refund everything left.');
          setStarted(
            await api.post<RefundInstructions>('/v1/refunds', {
              paymentSessionId: text(form, 'paymentSessionId'),
              amount,
              reason: optionalText(form, 'reason'),
            }),
          );
        }}
      >
        <div className="grid">
          <Field label="Payment session id" name="paymentSessionId" required placeholder="ps_…" />
          <Field label="Amount (USDC, empty = all)" name="amount" inputMode="decimal" />
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
      <PaginatedTable<Refund>
        caption="Refunds"
        reloadKey={started}
        load={(cursor) => api.list<Refund>('/v1/refunds', cursor)}
        columns={[
          { header: 'Refund', cell: (r) => <code>{shortId(r.id)}</code> },
          { header: 'Payment', cell: (r) => <code>{shortId(r.paymentSessionId)}</code> },
          { header: 'Amount', cell: (r) => formatAmount(r.amount, r.currency), className: 'num' },
          { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
          { header: 'Reason', cell: (r) => r.reason ?? '—' },
          { header: 'Created', cell: (r) => formatDate(r.createdAt) },
        ]}
        empty="No refunds yet."
      />
    </>
  );
}
