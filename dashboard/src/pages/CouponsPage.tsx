// Coupons and their promotion codes (issue 40): the list, a create form with every option the API
// takes (percent or amount off, duration, limits, redeem-by, plans), deleting a coupon (no new
// redemptions; discounts already applied run on), and per coupon its codes: create, deactivate, activate.
import { useEffect, useState } from 'react';
import { api, listAll } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { CopyId } from '../components/CopyId.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ActionButton, ActionForm, Field, Select, optionalText, text } from '../components/Form.tsx';
import { MoneyField } from '../components/MoneyField.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { MetadataField, metadataText } from '../components/Metadata.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { metadataFilter } from './filters.ts';
import { describeCoupon } from '../coupons.ts';
import { amountError, formatDate, parseAmount } from '../format.ts';
import type { Coupon, Plan, PromotionCode } from '../types.ts';

const DURATIONS = [
  { value: 'once', label: 'Once (the next charge)' },
  { value: 'repeating', label: 'Repeating (a number of periods)' },
  { value: 'forever', label: 'Forever' },
];

/** A day typed in a date field as the end of that UTC day; undefined when empty. */
const endOfDay = (day: string | undefined) => (day ? `${day}T23:59:59.000Z` : undefined);
const optionalInt = (form: FormData, name: string) => (text(form, name) ? Number(text(form, name)) : undefined);
const redeemed = (x: { timesRedeemed: number; maxRedemptions: number | null }) =>
  x.maxRedemptions === null ? String(x.timesRedeemed) : `${x.timesRedeemed} of ${x.maxRedemptions}`;

function couponBody(form: FormData) {
  const kind = text(form, 'kind');
  const duration = text(form, 'duration');
  const body: Record<string, unknown> = {
    name: optionalText(form, 'name'),
    duration,
    durationInPeriods: duration === 'repeating' ? optionalInt(form, 'durationInPeriods') : undefined,
    maxRedemptions: optionalInt(form, 'maxRedemptions'),
    redeemBy: endOfDay(optionalText(form, 'redeemBy')),
  };
  if (kind === 'percent') body.percentOff = Number(text(form, 'percentOff'));
  else {
    const amount = parseAmount(text(form, 'amountOff'));
    if (!amount) throw new Error(`Amount off: ${amountError(text(form, 'amountOff'))}`);
    body.amountOff = amount;
  }
  const planIds = form.getAll('planIds').map(String);
  if (planIds.length) body.appliesTo = { planIds };
  return body;
}

function CreateCoupon({ plans, onCreated }: { plans: Plan[]; onCreated: (coupon: Coupon) => void }) {
  const [kind, setKind] = useState('percent');
  const [duration, setDuration] = useState('once');
  return (
    <ActionForm
      title="Create a coupon"
      submitLabel="Create coupon"
      action={async (form) => onCreated(await api.post<Coupon>('/v1/coupons', couponBody(form)))}
    >
      <div className="grid">
        <Field label="Name" name="name" maxLength={200} hint="Shown on receipts: “Discount (name, 20% off)”." />
        <Select
          label="Discount"
          name="kind"
          value={kind}
          onChange={(event) => setKind(event.target.value)}
          options={[
            { value: 'percent', label: 'Percent off' },
            { value: 'amount', label: 'Amount off (USDC)' },
          ]}
        />
        {kind === 'percent' ? (
          <Field label="Percent off" name="percentOff" type="number" min={0.01} max={99.99} step={0.01} required />
        ) : (
          <MoneyField label="Amount off (USDC)" name="amountOff" required placeholder="5.00" />
        )}
        <Select
          label="Duration"
          name="duration"
          value={duration}
          onChange={(event) => setDuration(event.target.value)}
          options={DURATIONS}
        />
        {duration === 'repeating' && <Field label="Periods" name="durationInPeriods" type="number" min={1} max={1200} required />}
        <Field label="Max redemptions" name="maxRedemptions" type="number" min={1} hint="Empty: no limit." />
        <Field label="Redeem by" name="redeemBy" type="date" hint="Last day it can be applied (UTC)." />
      </div>
      {plans.length > 0 && (
        <fieldset className="checkboxes">
          <legend>Only for these plans (none checked: every plan)</legend>
          {plans.map((plan) => (
            <label key={plan.id}>
              <input type="checkbox" name="planIds" value={plan.id} /> {plan.name}
            </label>
          ))}
        </fieldset>
      )}
    </ActionForm>
  );
}

/** The promotion codes of one coupon: create one, deactivate or activate each. */
function PromotionCodes({ coupon, onClose }: { coupon: Coupon; onClose: () => void }) {
  const [version, setVersion] = useState(0);
  const [created, setCreated] = useState<PromotionCode | null>(null);
  const reload = () => setVersion((v) => v + 1);
  const title = `Promotion codes of “${coupon.name ?? coupon.id}”`;
  return (
    <section className="card detail" aria-label={title}>
      <h2>{title}</h2>
      <p className="hint">{describeCoupon(coupon)}. Customers type a code on the enrolment page; it is matched whatever the case.</p>
      <ActionForm
        title="Create a promotion code"
        submitLabel="Create code"
        action={async (form) => {
          const code = await api.post<PromotionCode>('/v1/promotion-codes', {
            coupon: coupon.id,
            code: optionalText(form, 'code'),
            maxRedemptions: optionalInt(form, 'maxRedemptions'),
            expiresAt: endOfDay(optionalText(form, 'expiresAt')),
            firstTimeTransaction: form.get('firstTimeTransaction') === 'on',
          });
          setCreated(code);
          reload();
        }}
      >
        <div className="grid">
          <Field label="Code" name="code" maxLength={64} hint="3 to 64 letters, digits, - or _; empty: a random 8-character code." />
          <Field label="Code max redemptions" name="maxRedemptions" type="number" min={1} hint="Empty: no limit." />
          <Field label="Expires" name="expiresAt" type="date" hint="Last day it is accepted (UTC)." />
        </div>
        <label className="check">
          <input type="checkbox" name="firstTimeTransaction" /> First-time customers only
        </label>
      </ActionForm>
      {created && (
        <p className="notice" role="status">
          Promotion code <code>{created.code}</code> created.
        </p>
      )}
      <PaginatedTable<PromotionCode>
        caption="Promotion codes"
        reloadKey={`${coupon.id}-${version}`}
        load={(cursor) => api.list<PromotionCode>('/v1/promotion-codes', cursor, { coupon: coupon.id })}
        columns={[
          { header: 'Code', cell: (c) => <code>{c.code}</code> },
          { header: 'Status', cell: (c) => <StatusBadge status={c.active ? 'active' : 'inactive'} /> },
          { header: 'Redeemed', cell: redeemed, className: 'num' },
          { header: 'Expires', cell: (c) => formatDate(c.expiresAt) },
          { header: 'First-time only', cell: (c) => (c.firstTimeTransaction ? 'Yes' : 'No') },
          { header: 'Metadata', cell: (c) => metadataText(c.metadata), className: 'wrap' },
          {
            header: 'Actions',
            cell: (c) => (
              <ActionButton
                label={c.active ? 'Deactivate' : 'Activate'}
                ariaLabel={`${c.active ? 'Deactivate' : 'Activate'} ${c.code}`}
                action={async () => {
                  await api.post<PromotionCode>(`/v1/promotion-codes/${encodeURIComponent(c.id)}`, { active: !c.active });
                  reload();
                }}
              />
            ),
          },
        ]}
        empty="No promotion codes for this coupon yet."
      />
      <button type="button" className="secondary" onClick={onClose}>
        Close
      </button>
    </section>
  );
}

export function CouponsPage() {
  const [plans, setPlans] = useState<Plan[]>([]);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [selected, setSelected] = useState<Coupon | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [metadataInput, setMetadataInput] = useState('');
  const [metadata, setMetadata] = useState('');
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    listAll<Plan>('/v1/subscription-plans').then((all) => setPlans(all.filter((p) => !p.archived)), setError);
  }, []);
  return (
    <>
      <CreateCoupon
        plans={plans}
        onCreated={(coupon) => {
          setNotice(`Coupon “${coupon.name ?? coupon.id}” created: ${describeCoupon(coupon)}.`);
          reload();
        }}
      />
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorMessage error={error} />
      {selected && <PromotionCodes key={selected.id} coupon={selected} onClose={() => setSelected(null)} />}
      <form
        className="filters"
        role="search"
        aria-label="Coupon filters"
        onSubmit={(event) => {
          event.preventDefault();
          setMetadata(metadataInput.trim());
        }}
      >
        <MetadataField value={metadataInput} onChange={setMetadataInput} />
        <button type="submit" className="secondary">
          Search
        </button>
      </form>
      <PaginatedTable<Coupon>
        caption="Coupons"
        reloadKey={`${version}|${metadata}`}
        load={(cursor) => api.list<Coupon>('/v1/coupons', cursor, metadataFilter(metadata))}
        columns={[
          { header: 'Name', cell: (c) => c.name ?? '—' },
          { header: 'Id', cell: (c) => <CopyId id={c.id} /> },
          { header: 'Terms', cell: (c) => describeCoupon(c) },
          { header: 'Redeemed', cell: redeemed, className: 'num' },
          { header: 'Redeem by', cell: (c) => formatDate(c.redeemBy) },
          { header: 'Metadata', cell: (c) => metadataText(c.metadata), className: 'wrap' },
          {
            header: 'Plans',
            cell: (c) =>
              c.appliesTo ? c.appliesTo.planIds.map((id) => plans.find((p) => p.id === id)?.name ?? id).join(', ') : 'All plans',
          },
          { header: 'Status', cell: (c) => <StatusBadge status={c.valid ? 'active' : 'not_valid'} /> },
          {
            header: 'Actions',
            cell: (c) => (
              <span className="row-actions">
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Promotion codes of ${c.name ?? c.id}`}
                  onClick={() => setSelected(c)}
                >
                  Codes
                </button>
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete ${c.name ?? c.id}`}
                  question={`Delete “${c.name ?? c.id}”? It and its codes can no longer be redeemed; discounts already applied run to their end.`}
                  confirmLabel="Delete"
                  onConfirm={() =>
                    api.delete(`/v1/coupons/${encodeURIComponent(c.id)}`).then(() => {
                      if (selected?.id === c.id) setSelected(null);
                      setNotice(`Coupon “${c.name ?? c.id}” deleted.`);
                      reload();
                    }, setError)
                  }
                />
              </span>
            ),
          },
        ]}
        empty="No coupons yet."
      />
    </>
  );
}
