// One customer: the wallet (and email), their subscriptions, payments and invoices.
// Payments are those attached to the customer (`customerId`); the other lists use the list endpoints'
// search (`q`: wallet or email).
import { api } from '../../api.ts';
import { CopyId } from '../../components/CopyId.tsx';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { Link } from '../../components/Link.tsx';
import { MetadataFacts, metadataText } from '../../components/Metadata.tsx';
import { PaginatedTable } from '../../components/PaginatedTable.tsx';
import { PaymentStatus } from '../../components/PaymentStatus.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { formatAmount, formatDate } from '../../format.ts';
import { paidFor, withInvoiceNumbers, type SessionWithInvoice } from '../../invoiceNumbers.ts';
import { detailPath } from '../../router.ts';
import type { Customer, Invoice, PaymentSession, Subscription } from '../../types.ts';
import { useObject } from './useObject.ts';

export function CustomerDetailPage({ id }: { id: string }) {
  const { value: customer, error } = useObject<Customer>(`/v1/customers/${encodeURIComponent(id)}`);
  if (!customer) return <ErrorMessage error={error} />;
  return (
    <>
      <section className="card" aria-label="Customer">
        <dl className="facts">
          <dt>Customer</dt>
          <dd>
            <CopyId id={customer.id} />
          </dd>
          <dt>Wallet</dt>
          <dd>
            <code>{customer.walletAddress}</code>
          </dd>
          <dt>Email</dt>
          <dd>{customer.email ?? '—'}</dd>
          <dt>Subscriptions</dt>
          <dd>
            {customer.activeSubscriptionCount} active of {customer.subscriptionCount}
          </dd>
          <dt>Paid charges</dt>
          <dd>{customer.succeededChargeCount}</dd>
          <dt>Payments</dt>
          <dd data-testid="customer-payment-count">{customer.completedPaymentCount} completed</dd>
          <dt>First seen</dt>
          <dd>{formatDate(customer.firstSeenAt)}</dd>
          <MetadataFacts metadata={customer.metadata} />
        </dl>
      </section>
      <h2>Subscriptions</h2>
      <PaginatedTable<Subscription>
        caption="Subscriptions of this customer"
        hideCaption
        load={(cursor) => api.list<Subscription>('/v1/subscriptions', cursor, { q: customer.walletAddress })}
        columns={[
          { header: 'Subscription', cell: (s) => <Link to={detailPath('subscriptions', s.id)}>{s.id}</Link> },
          { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
          { header: 'Amount', cell: (s) => formatAmount(s.amount, s.currency), className: 'num' },
          { header: 'Created', cell: (s) => formatDate(s.createdAt) },
        ]}
        empty="No subscriptions."
      />
      <h2>Payments</h2>
      <PaginatedTable<SessionWithInvoice>
        caption="Payments of this customer"
        hideCaption
        load={async (cursor) =>
          withInvoiceNumbers(await api.list<PaymentSession>('/v1/payment-sessions', cursor, { customerId: customer.id }))
        }
        columns={[
          {
            header: 'Amount',
            cell: (s) => <Link to={detailPath('payments', s.id)}>{formatAmount(s.amount, s.currency)}</Link>,
            className: 'num',
          },
          { header: 'Status', cell: (s) => <PaymentStatus session={s} /> },
          { header: 'For', cell: paidFor },
          { header: 'Metadata', cell: (s) => metadataText(s.metadata), className: 'wrap' },
          { header: 'Created', cell: (s) => formatDate(s.createdAt) },
        ]}
        empty="No payments."
      />
      <h2>Invoices</h2>
      {customer.email ? (
        <PaginatedTable<Invoice>
          caption="Invoices of this customer"
          hideCaption
          load={(cursor) => api.list<Invoice>('/v1/invoices', cursor, { q: customer.email! })}
          columns={[
            { header: 'Number', cell: (i) => <Link to={detailPath('invoices', i.id)}>{i.number}</Link> },
            { header: 'Total', cell: (i) => formatAmount(i.total, i.currency), className: 'num' },
            { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
            { header: 'Due', cell: (i) => formatDate(i.dueAt) },
          ]}
          empty="No invoices."
        />
      ) : (
        <p className="empty">Invoices are addressed by email; this customer left none.</p>
      )}
    </>
  );
}
