// Payments: one-shot payment sessions (hosted checkout, invoices, store, x402) and
// the periodic charges of subscriptions.
import { api } from '../api.ts';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { RefundDialog } from '../components/RefundDialog.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { formatAmount, formatDate, shortId } from '../format.ts';
import type { Charge, PaymentSession } from '../types.ts';

/** An x402 payment: the resource the seller sold (its description, else its URL). */
function x402Label(x402: NonNullable<PaymentSession['x402']>): string {
  return `x402: ${x402.resource.description ?? x402.resource.url ?? 'resource'}`;
}

export function PaymentsPage() {
  return (
    <>
      <section>
        <h2>Payment sessions</h2>
        <PaginatedTable<PaymentSession>
          caption="Payment sessions"
          load={(cursor) => api.list<PaymentSession>('/v1/payment-sessions', cursor)}
          columns={[
            { header: 'Session', cell: (s) => <code>{shortId(s.id)}</code> },
            { header: 'Amount', cell: (s) => formatAmount(s.amount, s.currency), className: 'num' },
            { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
            { header: 'For', cell: (s) => s.productName ?? (s.invoiceId ? `Invoice` : s.x402 ? x402Label(s.x402) : '—') },
            { header: 'Payer', cell: (s) => (s.payer ? <code>{shortId(s.payer)}</code> : '—') },
            { header: 'Created', cell: (s) => formatDate(s.createdAt) },
            {
              header: 'Checkout',
              cell: (s) => (
                <a href={s.checkoutUrl} target="_blank" rel="noreferrer">
                  Open
                </a>
              ),
            },
            { header: 'Refund', cell: (s) => (s.status === 'completed' ? <RefundDialog paymentSessionId={s.id} amount={s.amount} /> : null) },
          ]}
          empty="No payment sessions yet."
        />
      </section>
      <section>
        <h2>Subscription charges</h2>
        <PaginatedTable<Charge>
          caption="Subscription charges"
          load={(cursor) => api.list<Charge>('/v1/subscription-charges', cursor)}
          columns={[
            { header: 'Charge', cell: (c) => <code>{shortId(c.id)}</code> },
            { header: 'Subscription', cell: (c) => <code>{shortId(c.subscriptionId)}</code> },
            { header: 'Period', cell: (c) => String(c.periodIndex + 1) },
            { header: 'Amount', cell: (c) => formatAmount(c.amount, c.currency), className: 'num' },
            { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
            { header: 'Attempts', cell: (c) => String(c.attempts), className: 'num' },
            { header: 'Settled', cell: (c) => formatDate(c.settledAt) },
          ]}
          empty="No charges yet."
        />
      </section>
    </>
  );
}
