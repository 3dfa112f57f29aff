// Subscriptions: filter by status and plan, a detail view with its charges,
// pause and resume, and cancel with a confirmation.
import { useEffect, useState } from 'react';
import { api, download } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { CancelAtPeriodEndAction, PendingCancelFacts } from '../components/CancelAtPeriodEnd.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Link } from '../components/Link.tsx';
import { MetadataFacts } from '../components/Metadata.tsx';
import { detailPath } from '../router.ts';
import { ActionButton, Select } from '../components/Form.tsx';
import { CsvExport } from '../components/CsvExport.tsx';
import { useListFilters } from '../components/ListFilters.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { decimalAmount } from '../csv.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { TxHash } from '../components/TxHash.tsx';
import { discountSummary, SubscriptionDiscountActions } from '../components/SubscriptionDiscount.tsx';
import { PeriodClosesSection, UpcomingInvoiceSection } from '../components/SubscriptionBilling.tsx';
import { chainName } from '../chain.ts';
import { formatAmount, formatDate, shortId } from '../format.ts';
import type { Charge, Plan, Subscription } from '../types.ts';

// The statuses the API declares (a value it never returns fails the type check).
const STATUSES = [
  'trialing',
  'active',
  'at_risk',
  'paused',
  'cancelled',
  'lapsed',
  'completed',
] as const satisfies readonly Subscription['status'][];
const TERMINAL = new Set(['cancelled', 'lapsed', 'completed']);

export function SubscriptionDetail({
  subscription,
  plans,
  onChanged,
  standalone = false,
}: {
  subscription: Subscription;
  plans: Map<string, Plan>;
  onChanged: () => void;
  /** On its own page (no link to that page). */
  standalone?: boolean;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  return (
    <section className="card detail" aria-label="Subscription detail">
      <h2>
        Subscription <code>{subscription.id}</code> <StatusBadge status={subscription.status} />
      </h2>
      {!standalone && (
        <p>
          <Link to={detailPath('subscriptions', subscription.id)}>Open the subscription's page</Link> (timeline and events)
        </p>
      )}
      <dl className="facts">
        <dt>Plan</dt>
        <dd>{plans.get(subscription.planId)?.name ?? subscription.planId}</dd>
        <dt>Amount per period</dt>
        <dd>{formatAmount(subscription.planAmount, subscription.currency)}</dd>
        {subscription.planAmount !== subscription.amount && (
          <>
            {/* After a plan change the price can be below what the customer authorised on chain per period. */}
            <dt>Authorised per period</dt>
            <dd>{formatAmount(subscription.amount, subscription.currency)} (the most one period can pull)</dd>
          </>
        )}
        {subscription.pendingPlanChange && (
          <>
            <dt>Pending plan change</dt>
            <dd>
              To {plans.get(subscription.pendingPlanChange.planId)?.name ?? subscription.pendingPlanChange.planId} at{' '}
              {formatAmount(subscription.pendingPlanChange.amount, subscription.currency)}:{' '}
              {subscription.pendingPlanChange.status === 'requires_customer_action'
                ? 'waits for the customer to authorise the higher amount'
                : `from ${formatDate(subscription.pendingPlanChange.effectiveAt)}`}
            </dd>
          </>
        )}
        <dt>Network</dt>
        <dd>
          {chainName(subscription.onChain.chainId)}
          {subscription.onChain.createdTxHash && (
            <>
              {' '}
              (enrolled in <TxHash hash={subscription.onChain.createdTxHash} chainId={subscription.onChain.chainId} compact />)
            </>
          )}
        </dd>
        <dt>Customer wallet</dt>
        <dd>
          <Link to={detailPath('customers', subscription.customer.id)}>
            <code>{subscription.customer.walletAddress}</code>
          </Link>
        </dd>
        <dt>Customer email</dt>
        <dd>{subscription.customer.email ?? '—'}</dd>
        <dt>Discount</dt>
        <dd>{subscription.discount ? discountSummary(subscription.discount) : '—'}</dd>
        <dt>Next charge</dt>
        <dd>{formatDate(subscription.nextChargeAt)}</dd>
        <dt>Trial ends</dt>
        <dd>{formatDate(subscription.trialEnd)}</dd>
        <dt>Created</dt>
        <dd>{formatDate(subscription.createdAt)}</dd>
        <PendingCancelFacts subscription={subscription} />
        {subscription.cancelledAt && (
          <>
            <dt>Cancelled</dt>
            <dd>
              {formatDate(subscription.cancelledAt)} {subscription.cancelReason ? `(${subscription.cancelReason})` : ''}
            </dd>
          </>
        )}
        <MetadataFacts metadata={subscription.metadata} />
      </dl>
      {!TERMINAL.has(subscription.status) && (
        <div className="actions">
          {/* Pausing skips the periods that come due meanwhile (never charged); resuming charges the next one. */}
          {subscription.status === 'active' && (
            <ActionButton
              label="Pause subscription"
              action={async () => {
                await api.post(`/v1/subscriptions/${subscription.id}/pause`, {});
                onChanged();
              }}
            />
          )}
          {subscription.status === 'paused' && (
            <ActionButton
              label="Resume subscription"

              action={async () => {
                await api.post(`/v1/subscriptions/${subscription.id}/resume`, {});
                onChanged();
              }}
            />
          )}
          <ConfirmButton
            label="Cancel subscription"
            question="Cancel this subscription? No further periods will be charged."
            confirmLabel="Yes, cancel"
            onConfirm={async () => {
              setError(null);
              try {
                await api.post(`/v1/subscriptions/${subscription.id}/cancel`, reason.trim() ? { reason: reason.trim() } : {});
                onChanged();
              } catch (e) {
                setError(e);
              }
            }}
          >
            <label className="inline-field">
              Reason (optional)
              <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
            </label>
          </ConfirmButton>
          <CancelAtPeriodEndAction subscription={subscription} onChanged={onChanged} onError={setError} />
        </div>
      )}
      {!TERMINAL.has(subscription.status) && <SubscriptionDiscountActions subscription={subscription} onChanged={onChanged} />}
      <ErrorMessage error={error} />
      <UpcomingInvoiceSection subscription={subscription} />
      {plans.get(subscription.planId)?.meteredPrices && <PeriodClosesSection subscription={subscription} />}
      <h3>Charges</h3>
      <PaginatedTable<Charge>
        caption="Charges of this subscription"
        reloadKey={subscription.id}
        load={(cursor) => api.list<Charge>('/v1/subscription-charges', cursor, { subscriptionId: subscription.id })}
        columns={[
          { header: 'Period', cell: (c) => String(c.periodIndex + 1) },
          { header: 'Amount', cell: (c) => formatAmount(c.amount, c.currency), className: 'num' },
          {
            header: 'Discount',
            // The receipt's discount line: "Discount (Spring 20, 20% off) -2.00 USDC".
            cell: (c) =>
              c.lines
                .filter((line) => line.kind === 'discount')
                .map((line) => `${line.description} ${formatAmount(line.amount, c.currency)}`)
                .join('; ') || '—',
          },
          { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
          { header: 'Attempts', cell: (c) => String(c.attempts), className: 'num' },
          { header: 'Failure', cell: (c) => c.failureReason ?? '—' },
          { header: 'Settled', cell: (c) => formatDate(c.settledAt) },
          {
            header: 'Receipt',
            cell: (c) =>
              c.status === 'succeeded' ? (
                <ActionButton
                  label="PDF"
                  ariaLabel={`Receipt of period ${c.periodIndex + 1}`}
                  action={() => download(`/v1/subscription-charges/${encodeURIComponent(c.id)}/receipt`, `receipt-${c.id}.pdf`)}
                />
              ) : (
                '—'
              ),
          },
        ]}
        empty="No charges yet."
      />
    </section>
  );
}

export function SubscriptionsPage() {
  const filters = useListFilters(STATUSES, 'Id, wallet or email', { byNetwork: true, byMetadata: true });
  const [planId, setPlanId] = useState('');
  const [plans, setPlans] = useState<Map<string, Plan>>(new Map());
  const [selected, setSelected] = useState<Subscription | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    api
      .list<Plan>('/v1/subscription-plans', undefined, { limit: 100 })
      .then((page) => setPlans(new Map(page.data.map((p) => [p.id, p]))), setError);
  }, []);

  return (
    <>
      <ErrorMessage error={error} />
      {filters.element}
      <div className="filters">
        <Select
          label="Plan"
          options={[
            { value: '', label: 'Any' },
            ...[...plans.values()].map((p) => ({ value: p.id, label: p.archived ? `${p.name} (archived)` : p.name })),
          ]}
          value={planId}
          onChange={(e) => setPlanId(e.target.value)}
        />
      </div>
      <CsvExport<Subscription>
        path="/v1/subscriptions"
        query={{ ...filters.query, planId: planId || undefined }}
        filename="subscriptions"
        columns={[
          { header: 'id', value: (s) => s.id },
          { header: 'plan', value: (s) => plans.get(s.planId)?.name ?? s.planId },
          { header: 'status', value: (s) => s.status },
          { header: 'chain_id', value: (s) => s.onChain.chainId },
          { header: 'amount', value: (s) => decimalAmount(s.amount) },
          { header: 'currency', value: (s) => s.currency },
          { header: 'customer_wallet', value: (s) => s.customer.walletAddress },
          { header: 'customer_email', value: (s) => s.customer.email },
          { header: 'next_charge_at', value: (s) => s.nextChargeAt },
          { header: 'created_at', value: (s) => s.createdAt },
          { header: 'cancelled_at', value: (s) => s.cancelledAt },
        ]}
      />
      <PaginatedTable<Subscription>
        caption="Subscriptions"
        reloadKey={`${filters.key}|${planId}|${version}`}
        load={(cursor) => api.list<Subscription>('/v1/subscriptions', cursor, { ...filters.query, planId })}
        onSelect={setSelected}
        selectedId={selected?.id}
        columns={[
          { header: 'Subscription', cell: (s) => shortId(s.id) },
          { header: 'Plan', cell: (s) => plans.get(s.planId)?.name ?? shortId(s.planId) },
          { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
          { header: 'Amount', cell: (s) => formatAmount(s.amount, s.currency), className: 'num' },
          { header: 'Network', cell: (s) => chainName(s.onChain.chainId) },
          {
            header: 'Customer',
            cell: (s) => (
              <Link to={detailPath('customers', s.customer.id)}>
                <code>{shortId(s.customer.walletAddress)}</code>
              </Link>
            ),
          },
          { header: 'Next charge', cell: (s) => formatDate(s.nextChargeAt) },
        ]}
        empty="No subscriptions match."
      />
      {selected && (
        <SubscriptionDetail
          key={selected.id}
          subscription={selected}
          plans={plans}
          onChanged={async () => {
            setSelected(await api.get<Subscription>(`/v1/subscriptions/${selected.id}`));
            setVersion((v) => v + 1);
          }}
        />
      )}
    </>
  );
}
