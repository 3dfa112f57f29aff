// Customers: one per paying wallet (GET /v1/customers), searchable by wallet or email.
import { useState } from 'react';
import { api } from '../api.ts';
import { ActionForm, Field, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
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
      <PaginatedTable<Customer>
        caption="Customers"
        reloadKey={JSON.stringify(filter)}
        load={(cursor) => api.list<Customer>('/v1/customers', cursor, filter)}
        columns={[
          { header: 'Wallet', cell: (c) => <code>{c.walletAddress}</code> },
          { header: 'Email', cell: (c) => c.email ?? '—' },
          { header: 'Subscriptions', cell: (c) => `${c.activeSubscriptionCount} active of ${c.subscriptionCount}`, className: 'num' },
          { header: 'Paid charges', cell: (c) => String(c.succeededChargeCount), className: 'num' },
          { header: 'Last subscribed', cell: (c) => formatDate(c.lastSubscribedAt) },
          { header: 'First seen', cell: (c) => formatDate(c.firstSeenAt) },
        ]}
        empty="No customers match."
      />
    </>
  );
}
