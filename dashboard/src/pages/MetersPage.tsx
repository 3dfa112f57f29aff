// Billing meters (docs/metered-billing.md): the list, a create form, renaming (the only change the API allows:
// the aggregation and keys decide how stored events count), deactivating and reactivating, and a usage chart of
// one customer on one meter from GET /v1/billing/meters/{id}/event-summaries.
import { useEffect, useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, listAll } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { CopyId } from '../components/CopyId.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ActionButton, ActionForm, Field, Select, optionalText, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { RenameForm } from '../components/RenameForm.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { lastDays, usageRange, usageSeries, type UsagePoint, type UsageWindow } from '../meterUsage.ts';
import type { Customer, Meter, MeterSummary } from '../types.ts';

const AGGREGATIONS = [
  { value: 'sum', label: 'Sum of the values' },
  { value: 'count', label: 'Count of events' },
  { value: 'max', label: 'Largest value' },
  { value: 'last', label: 'Last value' },
  { value: 'unique_count', label: 'Distinct values' },
] as const satisfies readonly { value: Meter['aggregation']; label: string }[];

const MAPPINGS = [
  { value: 'by_id', label: 'Customer id (cus_…)' },
  { value: 'by_wallet', label: 'Customer wallet address' },
] as const satisfies readonly { value: Meter['customerMapping']['type']; label: string }[];

const aggregationLabel = (a: Meter['aggregation']) => AGGREGATIONS.find((x) => x.value === a)?.label ?? a;

/** Rename one meter: its event name, aggregation and keys stay (they decide how the stored events count). */
function EditMeter({ meter, onSaved, onClose }: { meter: Meter; onSaved: (meter: Meter) => void; onClose: () => void }) {
  return (
    <RenameForm
      title={`Edit “${meter.displayName}”`}
      submitLabel="Save meter"
      field={{ label: 'Display name', name: 'displayName', maxLength: 250, defaultValue: meter.displayName }}
      save={(displayName) => api.post<Meter>(`/v1/billing/meters/${encodeURIComponent(meter.id)}`, { displayName })}
      onSaved={onSaved}
      onClose={onClose}
    >
      Only the display name can change: the event name, aggregation and keys decide how the events already stored count. For other rules,
      create a new meter and deactivate this one.
    </RenameForm>
  );
}

function CreateMeter({ onCreated }: { onCreated: (meter: Meter) => void }) {
  const [aggregation, setAggregation] = useState<Meter['aggregation']>('sum');
  return (
    <ActionForm
      title="Create a meter"
      submitLabel="Create meter"
      action={async (form) => {
        const meter = await api.post<Meter>('/v1/billing/meters', {
          displayName: text(form, 'displayName'),
          eventName: text(form, 'eventName'),
          aggregation,
          ...(aggregation === 'count' ? {} : { valueKey: text(form, 'valueKey') }),
          customerMapping: { type: text(form, 'mappingType'), eventPayloadKey: optionalText(form, 'customerKey') ?? 'customerId' },
        });
        onCreated(meter);
      }}
    >
      <div className="grid">
        <Field label="Display name" name="displayName" required maxLength={250} placeholder="API tokens" />
        <Field
          label="Event name"
          name="eventName"
          required
          maxLength={100}
          placeholder="api_tokens"
          hint="What your usage events send as eventName."
        />
        <Select
          label="Aggregation"
          name="aggregation"
          options={AGGREGATIONS}
          value={aggregation}
          onChange={(event) => setAggregation(event.target.value as Meter['aggregation'])}
        />
        {aggregation !== 'count' && (
          <Field
            label="Value key"
            name="valueKey"
            required
            maxLength={100}
            placeholder="tokens"
            hint="The payload key holding the value."
          />
        )}
        <Select label="Customer is named by" name="mappingType" options={MAPPINGS} defaultValue="by_id" />
        <Field
          label="Customer key"
          name="customerKey"
          maxLength={100}
          placeholder="customerId"
          hint="The payload key naming the customer."
        />
      </div>
    </ActionForm>
  );
}

/** A customer as the picker shows them: email, else the wallet shortened, and the id. */
const customerLabel = (c: Customer) => `${c.email ?? `${c.walletAddress.slice(0, 6)}…${c.walletAddress.slice(-4)}`} · ${c.id}`;

type Usage = { points: UsagePoint[]; total: string; meter: Meter; window: UsageWindow };

/** One customer's usage on one meter: one bar per window, the exact values in a table, the range's total. */
function UsageChart({ reloadKey }: { reloadKey: number }) {
  const [meters, setMeters] = useState<Meter[]>([]);
  const [customers, setCustomers] = useState<Customer[]>([]);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const initial = lastDays(30);

  useEffect(() => {
    Promise.all([listAll<Meter>('/v1/billing/meters', {}, 1000), listAll<Customer>('/v1/customers', {}, 1000)]).then(([m, c]) => {
      setMeters(m);
      setCustomers(c);
    }, setError);
  }, [reloadKey]);

  if (meters.length === 0 || customers.length === 0) {
    return (
      <section className="card" aria-labelledby="usage-heading">
        <h2 id="usage-heading">Usage</h2>
        <ErrorMessage error={error} />
        <p className="hint">
          {meters.length === 0 ? 'Create a meter, then send usage events to see a customer’s usage here.' : 'No customers yet.'}
        </p>
      </section>
    );
  }
  return (
    <>
      <ActionForm
        title="Usage"
        submitLabel="Show usage"
        action={async (form) => {
          const meter = meters.find((m) => m.id === text(form, 'meter'))!;
          const window = text(form, 'window') as UsageWindow;
          const range = usageRange(text(form, 'from'), text(form, 'to'));
          const path = `/v1/billing/meters/${encodeURIComponent(meter.id)}/event-summaries`;
          const query = { customerId: text(form, 'customer'), ...range };
          // The total comes from the API too: a max or distinct count over the range is not the sum of its windows.
          const [windows, total] = await Promise.all([
            api.get<{ data: MeterSummary[] }>(path, { ...query, valueGroupingWindow: window }),
            api.get<{ data: MeterSummary[] }>(path, query),
          ]);
          setUsage({ points: usageSeries(windows.data, range, window), total: total.data[0]?.aggregatedValue ?? '0', meter, window });
        }}
      >
        <div className="grid">
          <Select
            label="Meter"
            name="meter"
            options={meters.map((m) => ({
              value: m.id,
              label: `${m.displayName} (${m.eventName})${m.status === 'inactive' ? ', inactive' : ''}`,
            }))}
          />
          <Select label="Customer" name="customer" options={customers.map((c) => ({ value: c.id, label: customerLabel(c) }))} />
          <Field label="From (UTC day)" name="from" type="date" required defaultValue={initial.from} />
          <Field label="To (UTC day, included)" name="to" type="date" required defaultValue={initial.to} />
          <Select
            label="Window"
            name="window"
            options={[
              { value: 'day', label: 'Day' },
              { value: 'hour', label: 'Hour' },
            ]}
            defaultValue="day"
          />
        </div>
      </ActionForm>
      <ErrorMessage error={error} />
      {usage && <UsageResult usage={usage} />}
    </>
  );
}

function UsageResult({ usage }: { usage: Usage }) {
  const withEvents = usage.points.filter((p) => p.value !== '0');
  const title = `${usage.meter.displayName}: ${aggregationLabel(usage.meter.aggregation).toLowerCase()} per ${usage.window}`;
  return (
    <section className="card chart" aria-label={title} data-testid="usage-chart">
      <h2>{title}</h2>
      <div className="metric">
        <span className="metric-label">Over the whole range</span>
        <span className="metric-value" data-testid="usage-total">
          {usage.total}
        </span>
      </div>
      <div className="chart-area">
        {withEvents.length === 0 ? (
          <p className="chart-empty" data-testid="usage-chart-empty">
            <strong>No usage in this range.</strong> Events appear here once the customer&apos;s usage is reported.
          </p>
        ) : (
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={usage.points} margin={{ left: 8, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="label" fontSize={12} />
              <YAxis fontSize={12} width={56} />
              <Tooltip formatter={(_value, _name, item) => (item.payload as UsagePoint).value} />
              <Bar dataKey="chartValue" name={usage.meter.displayName} fill="#2b59c3" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        )}
      </div>
      {withEvents.length > 0 && (
        <div className="table-scroll">
          <table>
            <caption>Usage by {usage.window}</caption>
            <thead>
              <tr>
                <th scope="col">{usage.window === 'day' ? 'Day (UTC)' : 'Hour (UTC)'}</th>
                <th scope="col" className="num">
                  Value
                </th>
              </tr>
            </thead>
            <tbody>
              {withEvents.map((p) => (
                <tr key={p.start}>
                  <td>{p.label}</td>
                  <td className="num">{p.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function MetersPage() {
  const [editing, setEditing] = useState<Meter | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const reload = () => setVersion((v) => v + 1);
  const setStatus = (meter: Meter, action: 'deactivate' | 'reactivate') =>
    api.post<Meter>(`/v1/billing/meters/${encodeURIComponent(meter.id)}/${action}`).then((m) => {
      setChanged(`Meter “${m.displayName}” ${action}d.`);
      reload();
    });
  return (
    <>
      <CreateMeter
        onCreated={(meter) => {
          setChanged(`Meter “${meter.displayName}” created for the event name ${meter.eventName}.`);
          reload();
        }}
      />
      {changed && (
        <p className="notice" role="status">
          {changed}
        </p>
      )}
      <ErrorMessage error={error} />
      {editing && (
        <EditMeter
          key={editing.id}
          meter={editing}
          onClose={() => setEditing(null)}
          onSaved={(meter) => {
            setEditing(null);
            setChanged(`Meter renamed to “${meter.displayName}”.`);
            reload();
          }}
        />
      )}
      <PaginatedTable<Meter>
        caption="Meters"
        reloadKey={version}
        load={(cursor) => api.list<Meter>('/v1/billing/meters', cursor)}
        columns={[
          { header: 'Name', cell: (m) => m.displayName },
          { header: 'Event name', cell: (m) => <code>{m.eventName}</code> },
          {
            header: 'Counts',
            cell: (m) => (
              <>
                {aggregationLabel(m.aggregation)}
                {m.valueKey && (
                  <>
                    {' '}
                    in <code>{m.valueKey}</code>
                  </>
                )}
              </>
            ),
          },
          {
            header: 'Customer key',
            cell: (m) => (
              <>
                <code>{m.customerMapping.eventPayloadKey}</code> ({m.customerMapping.type === 'by_id' ? 'id' : 'wallet'})
              </>
            ),
          },
          { header: 'Status', cell: (m) => <StatusBadge status={m.status} /> },
          { header: 'Id', cell: (m) => <CopyId id={m.id} /> },
          {
            header: 'Actions',
            cell: (m) => (
              <span className="row-actions">
                <button type="button" className="secondary" aria-label={`Edit ${m.displayName}`} onClick={() => setEditing(m)}>
                  Edit
                </button>
                {m.status === 'active' ? (
                  <ConfirmButton
                    label="Deactivate"
                    ariaLabel={`Deactivate ${m.displayName}`}
                    question={`Deactivate “${m.displayName}”? Its events are refused from now on; those stored keep counting.`}
                    confirmLabel="Deactivate"
                    onConfirm={() => setStatus(m, 'deactivate').catch(setError)}
                  />
                ) : (
                  <ActionButton label="Reactivate" ariaLabel={`Reactivate ${m.displayName}`} action={() => setStatus(m, 'reactivate')} />
                )}
              </span>
            ),
          },
        ]}
        empty="No meters yet."
      />
      <UsageChart reloadKey={version} />
    </>
  );
}
