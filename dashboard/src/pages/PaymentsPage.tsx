// Payments: one-shot payment sessions (hosted checkout, invoices, store, x402) and
// the periodic charges of subscriptions.
import { useState } from 'react';
import { api } from '../api.ts';
import { CsvExport } from '../components/CsvExport.tsx';
import { Link } from '../components/Link.tsx';
import { metadataText } from '../components/Metadata.tsx';
import { useListFilters } from '../components/ListFilters.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { decimalAmount } from '../csv.ts';
import { detailPath } from '../router.ts';
import { RefundDialog } from '../components/RefundDialog.tsx';
import { PaymentStatus } from '../components/PaymentStatus.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { TxHash } from '../components/TxHash.tsx';
import { chainName, sessionNetwork } from '../chain.ts';
import { formatAmount, formatDate, shortId } from '../format.ts';
import { paidFor, withInvoiceNumbers, type SessionWithInvoice } from '../invoiceNumbers.ts';
import type { Charge, PaymentSession } from '../types.ts';
import { CreatePaymentForm } from './CreatePaymentForm.tsx';

// The statuses the API declares (a value it never returns fails the type check).
const STATUSES = ['open', 'processing', 'completed', 'expired', 'cancelled'] as const satisfies readonly PaymentSession['status'][];

export function PaymentsPage() {
  const filters = useListFilters(STATUSES, undefined, { byNetwork: true, byMetadata: true });
  // Bumped when a payment is created here, so the list shows it.
  const [created, setCreated] = useState(0);
  return (
    <>
      <CreatePaymentForm onCreated={() => setCreated((n) => n + 1)} />
      <section>
        <h2>Payment sessions</h2>
        {filters.element}
        <CsvExport<PaymentSession>
          path="/v1/payment-sessions"
          query={filters.query}
          filename="payment-sessions"
          columns={[
            { header: 'id', value: (s) => s.id },
            { header: 'amount', value: (s) => decimalAmount(s.amount) },
            { header: 'currency', value: (s) => s.currency },
            { header: 'status', value: (s) => s.status },
            { header: 'payer', value: (s) => s.payer },
            { header: 'transaction_hash', value: (s) => s.transactionHash },
            { header: 'invoice_id', value: (s) => s.invoiceId },
            { header: 'product', value: (s) => s.productName },
            { header: 'created_at', value: (s) => s.createdAt },
            { header: 'completed_at', value: (s) => s.completedAt },
            // The chain that paid it, else its first accepted chain.
            { header: 'chain_id', value: (s) => s.transactionChainId ?? s.chainId },
            // Last, so the columns of earlier exports keep their places.
            { header: 'amount_refunded', value: (s) => decimalAmount(s.amountRefunded) },
            { header: 'customer_id', value: (s) => s.customerId },
            { header: 'metadata', value: (s) => JSON.stringify(s.metadata) },
          ]}
        />
        <PaginatedTable<SessionWithInvoice>
          caption="Payment sessions"
          hideCaption
          reloadKey={`${filters.key}|${created}`}
          load={async (cursor) => withInvoiceNumbers(await api.list<PaymentSession>('/v1/payment-sessions', cursor, filters.query))}
          columns={[
            {
              header: 'Session',
              cell: (s) => (
                <Link to={detailPath('payments', s.id)} ariaLabel={`Payment ${s.id}`}>
                  <code>{shortId(s.id)}</code>
                </Link>
              ),
            },
            { header: 'Amount', cell: (s) => formatAmount(s.amount, s.currency), className: 'num' },
            { header: 'Status', cell: (s) => <PaymentStatus session={s} /> },
            { header: 'For', cell: paidFor },
            {
              header: 'Network',
              cell: (s) => (
                <>
                  {sessionNetwork(s)}
                  {s.transactionHash && (
                    <div>
                      <TxHash hash={s.transactionHash} chainId={s.transactionChainId ?? s.chainId} compact />
                    </div>
                  )}
                </>
              ),
              className: 'wrap',
            },
            {
              header: 'Payer',
              cell: (s) =>
                s.customerId ? (
                  <Link to={detailPath('customers', s.customerId)} ariaLabel={`Customer ${s.customerId}`}>
                    <code>{s.payer ? shortId(s.payer) : shortId(s.customerId)}</code>
                  </Link>
                ) : s.payer ? (
                  <code>{shortId(s.payer)}</code>
                ) : (
                  '—'
                ),
            },
            { header: 'Metadata', cell: (s) => metadataText(s.metadata), className: 'wrap' },
            { header: 'Created', cell: (s) => formatDate(s.createdAt) },
            {
              header: 'Checkout',
              cell: (s) => (
                <a href={s.checkoutUrl} target="_blank" rel="noreferrer">
                  Open
                </a>
              ),
            },
            {
              header: 'Refund',
              cell: (s) => (s.amountRefundable !== '0' ? <RefundDialog paymentSessionId={s.id} refundable={s.amountRefundable} /> : null),
            },
          ]}
          empty="No payment sessions match. Payments appear here when a checkout, invoice or store purchase starts."
        />
      </section>
      <section>
        <h2>Subscription charges</h2>
        <PaginatedTable<Charge>
          caption="Subscription charges"
          hideCaption
          load={(cursor) => api.list<Charge>('/v1/subscription-charges', cursor)}
          columns={[
            { header: 'Charge', cell: (c) => <code>{shortId(c.id)}</code> },
            {
              header: 'Subscription',
              cell: (c) => (
                <Link to={detailPath('subscriptions', c.subscriptionId)}>
                  <code>{shortId(c.subscriptionId)}</code>
                </Link>
              ),
            },
            { header: 'Period', cell: (c) => String(c.periodIndex + 1) },
            { header: 'Amount', cell: (c) => formatAmount(c.amount, c.currency), className: 'num' },
            { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
            {
              header: 'Network',
              cell: (c) => (
                <>
                  {chainName(c.chainId)}
                  {c.transactionHash && (
                    <div>
                      <TxHash hash={c.transactionHash} chainId={c.chainId} compact />
                    </div>
                  )}
                </>
              ),
            },
            { header: 'Attempts', cell: (c) => String(c.attempts), className: 'num' },
            { header: 'Settled', cell: (c) => formatDate(c.settledAt) },
          ]}
          empty="No charges yet."
        />
      </section>
    </>
  );
}
