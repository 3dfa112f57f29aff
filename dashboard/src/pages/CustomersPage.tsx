// Customers: one per paying wallet (GET /v1/customers), searchable by wallet or email.
import { useState } from 'react';
import { api } from '../api.ts';
import { ActionForm, Field, text } from '../components/Form.tsx';
import { CsvExport } from '../components/CsvExport.tsx';
import { Link } from '../components/Link.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { detailPath } from '../router.ts';
import { formatDate } from '../format.ts';
import type { Customer } from '../types.ts';

export function CustomersPage() {
  const [filter, setFilter] = useState<{ walletAddress?: string; email?: string }>({});
  return (
    <>
      <ActionForm
        className="compact"
        submitLabel="Search"
        action={async (form) => {
          const query = text(form, 'query');
          setFilter(/^0x/i.test(query) ? { walletAddress: query } : query ? { email: query } : {});
        }}
      >
        <Field label="Wallet address or email" name="query" placeholder="0x… or name@example.com" />
      </ActionForm>
      <CsvExport<Customer>
        path="/v1/customers"
        query={filter}
        filename="customers"
        columns={[
          { header: 'id', value: (c) => c.id },
          { header: 'wallet', value: (c) => c.walletAddress },
          { header: 'email', value: (c) => c.email },
          { header: 'subscriptions', value: (c) => c.subscriptionCount },
          { header: 'active_subscriptions', value: (c) => c.activeSubscriptionCount },
          { header: 'paid_charges', value: (c) => c.succeededChargeCount },
          { header: 'first_seen_at', value: (c) => c.firstSeenAt },
          { header: 'completed_payments', value: (c) => c.completedPaymentCount },
        ]}
      />
      <PaginatedTable<Customer>
        caption="Customers"
        reloadKey={JSON.stringify(filter)}
        load={(cursor) => api.list<Customer>('/v1/customers', cursor, filter)}
        columns={[
          {
            header: 'Wallet',
            cell: (c) => (
              <Link to={detailPath('customers', c.id)}>
                <code>{c.walletAddress}</code>
              </Link>
            ),
          },
          { header: 'Email', cell: (c) => c.email ?? '—' },
          { header: 'Subscriptions', cell: (c) => `${c.activeSubscriptionCount} active of ${c.subscriptionCount}`, className: 'num' },
          { header: 'Paid charges', cell: (c) => String(c.succeededChargeCount), className: 'num' },
          { header: 'Payments', cell: (c) => String(c.completedPaymentCount), className: 'num' },
          { header: 'Last subscribed', cell: (c) => formatDate(c.lastSubscribedAt) },
          { header: 'First seen', cell: (c) => formatDate(c.firstSeenAt) },
        ]}
        empty="No customers match. A customer appears with their first payment or subscription."
      />
    </>
  );
}
