// Subscription plans: the list and a create form (amount typed in USDC, sent in base units).
import { useState } from 'react';
import { api } from '../api.ts';
import { CopyId } from '../components/CopyId.tsx';
import { ActionForm, Field, Select, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { describeInterval, formatAmount, formatDate, parseAmount } from '../format.ts';
import type { Plan } from '../types.ts';

export const PLAN_INTERVALS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;


export function PlansPage() {
  const [created, setCreated] = useState<Plan | null>(null);
  return (
    <>
      <ActionForm
        title="Create a plan"
        submitLabel="Create plan"
        action={async (form) => {
          const amount = parseAmount(text(form, 'amount'));
          if (!amount) throw new Error('Enter the price in USDC, e.g. 10 or 9.99 (at most 6 decimals).');
          const plan = await api.post<Plan>('/v1/subscription-plans', {
            name: text(form, 'name'),
            amount,
            currency: 'USDC',
            interval: text(form, 'interval'),
            intervalCount: Number(text(form, 'intervalCount') || '1'),
            trialPeriodDays: Number(text(form, 'trialPeriodDays') || '0'),
          });
          setCreated(plan);
        }}
      >
        <div className="grid">
          <Field label="Name" name="name" required maxLength={200} />
          <Field label="Price (USDC)" name="amount" required inputMode="decimal" placeholder="10.00" />
          <Select label="Interval" name="interval" options={PLAN_INTERVALS} defaultValue="monthly" />
          <Field label="Interval count" name="intervalCount" type="number" min={1} max={365} defaultValue={1} />
          <Field label="Trial days" name="trialPeriodDays" type="number" min={0} max={730} defaultValue={0} />
        </div>
      </ActionForm>
      {created && (
        <p className="notice" role="status">
          Plan “{created.name}” created: {formatAmount(created.amount, created.currency)} {describeInterval(created)}. Id: <CopyId id={created.id} />
        </p>
      )}
      <PaginatedTable<Plan>
        caption="Plans"
        reloadKey={created?.id}
        load={(cursor) => api.list<Plan>('/v1/subscription-plans', cursor)}
        columns={[
          { header: 'Name', cell: (p) => p.name },
          { header: 'Id', cell: (p) => <CopyId id={p.id} /> },
          { header: 'Price', cell: (p) => formatAmount(p.amount, p.currency), className: 'num' },
          { header: 'Interval', cell: describeInterval },
          { header: 'Trial', cell: (p) => (p.trialPeriodDays ? `${p.trialPeriodDays} days` : '—') },
          { header: 'Enrol link', cell: (p) => <a href={`/checkout/plans/${p.id}`} target="_blank" rel="noreferrer">Open</a> },
          { header: 'Created', cell: (p) => formatDate(p.createdAt) },
        ]}
        empty="No plans yet."
      />
    </>
  );
}
