// Subscription plans: the list, a create form (amount typed in USDC, sent in base units),
// renaming (the only change the API allows: the price and period are what subscribers signed)
// and archiving (no new enrolments; running subscriptions go on).
import { useState } from 'react';
import { api } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { CopyId } from '../components/CopyId.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ActionForm, Field, Select, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { RenameForm } from '../components/RenameForm.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { MoneyField } from '../components/MoneyField.tsx';
import { amountError, describeInterval, formatAmount, formatDate, parseAmount } from '../format.ts';
import type { Plan } from '../types.ts';

export const PLAN_INTERVALS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;

/** Rename one plan: the price, interval and trial stay (a new price is a new plan). */
function EditPlan({ plan, onSaved, onClose }: { plan: Plan; onSaved: (plan: Plan) => void; onClose: () => void }) {
  return (
    <RenameForm
      title={`Edit “${plan.name}”`}
      submitLabel="Save plan"
      field={{ label: 'Plan name', name: 'name', maxLength: 200, defaultValue: plan.name }}
      save={(name) => api.post<Plan>(`/v1/subscription-plans/${encodeURIComponent(plan.id)}`, { name })}
      onSaved={onSaved}
      onClose={onClose}
    >
      Only the name can change: {formatAmount(plan.amount, plan.currency)} {describeInterval(plan)} is what each subscriber&apos;s wallet
      signed. For a new price, create a new plan and archive this one.
    </RenameForm>
  );
}

const TRIAL_END_CHOICES = [
  { value: 'dunning', label: 'Retry within the grace window' },
  { value: 'cancel', label: 'Cancel the subscription' },
  { value: 'pause', label: 'Pause the subscription' },
] as const satisfies readonly { value: NonNullable<Plan['trialEndBehavior']>; label: string }[];

export function PlansPage() {
  const [created, setCreated] = useState<Plan | null>(null);
  const [editing, setEditing] = useState<Plan | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const reload = () => setVersion((v) => v + 1);
  return (
    <>
      <ActionForm
        title="Create a plan"
        submitLabel="Create plan"
        action={async (form) => {
          const amount = parseAmount(text(form, 'amount'));
          if (!amount) throw new Error(`Price: ${amountError(text(form, 'amount'))}`);
          const plan = await api.post<Plan>('/v1/subscription-plans', {
            name: text(form, 'name'),
            amount,
            currency: 'USDC',
            interval: text(form, 'interval'),
            intervalCount: Number(text(form, 'intervalCount') || '1'),
            trialPeriodDays: Number(text(form, 'trialPeriodDays') || '0'),
            trialEndBehavior: text(form, 'trialEndBehavior'),
          });
          setCreated(plan);
          reload();
        }}
      >
        <div className="grid">
          <Field label="Name" name="name" required maxLength={200} />
          <MoneyField label="Price (USDC)" name="amount" required placeholder="10.00" />
          <Select label="Interval" name="interval" options={PLAN_INTERVALS} defaultValue="monthly" />
          <Field label="Interval count" name="intervalCount" type="number" min={1} max={365} defaultValue={1} />
          <Field label="Trial days" name="trialPeriodDays" type="number" min={0} max={730} defaultValue={0} />
          {/* What a refused first charge after the trial does (the API's trialEndBehavior). */}
          <Select
            label="If the first charge after the trial fails"
            name="trialEndBehavior"
            options={TRIAL_END_CHOICES}
            defaultValue="dunning"
          />
        </div>
      </ActionForm>
      {created && (
        <p className="notice" role="status">
          Plan “{created.name}” created: {formatAmount(created.amount, created.currency)} {describeInterval(created)}. Id:{' '}
          <CopyId id={created.id} />
        </p>
      )}
      {changed && (
        <p className="notice" role="status">
          {changed}
        </p>
      )}
      <ErrorMessage error={error} />
      {editing && (
        <EditPlan
          key={editing.id}
          plan={editing}
          onClose={() => setEditing(null)}
          onSaved={(plan) => {
            setEditing(null);
            setChanged(`Plan renamed to “${plan.name}”.`);
            reload();
          }}
        />
      )}
      <PaginatedTable<Plan>
        caption="Plans"
        reloadKey={version}
        load={(cursor) => api.list<Plan>('/v1/subscription-plans', cursor)}
        columns={[
          {
            header: 'Name',
            cell: (p) => (
              <>
                {p.name} {p.archived && <StatusBadge status="archived" />}
              </>
            ),
          },
          { header: 'Id', cell: (p) => <CopyId id={p.id} /> },
          { header: 'Price', cell: (p) => formatAmount(p.amount, p.currency), className: 'num' },
          { header: 'Interval', cell: describeInterval },
          { header: 'Trial', cell: (p) => (p.trialPeriodDays ? `${p.trialPeriodDays} days` : '—') },
          {
            header: 'Enrol link',
            // An archived plan takes no new subscribers: its enrolment page would only refuse them.
            cell: (p) =>
              p.archived ? (
                '—'
              ) : (
                <a href={`/checkout/plans/${p.id}`} target="_blank" rel="noreferrer">
                  Open
                </a>
              ),
          },
          { header: 'Created', cell: (p) => formatDate(p.createdAt) },
          {
            header: 'Actions',
            cell: (p) =>
              p.archived ? (
                <small className="hint">Archived {formatDate(p.archivedAt)}</small>
              ) : (
                <span className="row-actions">
                  <button type="button" className="secondary" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>
                    Edit
                  </button>
                  <ConfirmButton
                    label="Archive"
                    ariaLabel={`Archive ${p.name}`}
                    question={`Archive “${p.name}”? It takes no new subscribers; current subscriptions keep running.`}
                    confirmLabel="Archive"
                    onConfirm={() =>
                      api.post<Plan>(`/v1/subscription-plans/${encodeURIComponent(p.id)}/archive`).then((plan) => {
                        if (editing?.id === plan.id) setEditing(null);
                        setChanged(`Plan “${plan.name}” archived.`);
                        reload();
                      }, setError)
                    }
                  />
                </span>
              ),
          },
        ]}
        empty="No plans yet."
      />
    </>
  );
}
