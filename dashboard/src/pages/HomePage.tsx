// Home: MRR, churn, conversion and forecast from /v1/stats/* over the last
// twelve months, and the most recent payments.
import { useEffect, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api } from '../api.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Link } from '../components/Link.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { detailPath } from '../router.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { chartUnits, formatAmount, formatDate, formatRate, monthLabel } from '../format.ts';
import { paidFor, withInvoiceNumbers, type SessionWithInvoice } from '../invoiceNumbers.ts';
import type { ChurnStats, ConversionStats, ForecastStats, MrrStats, PaymentSession } from '../types.ts';

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The last twelve calendar months up to today (UTC), as the stats API takes them. */
export function statsRange(): { from: string; to: string; interval: 'month' } {
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  return { from: day(from), to: day(now), interval: 'month' };
}

const percent = (rate: string) => Number(rate) * 100; // chart geometry only; labels use formatRate
const units = (value: number) => `${value.toLocaleString(undefined, { maximumFractionDigits: 0 })}`;

function Metric({ label, value }: { label: string; value: string }) {
  return (
    <div className="metric">
      <span className="metric-label">{label}</span>
      <span className="metric-value">{value}</span>
    </div>
  );
}

/** True when no point of the series has a value other than zero: a chart of it would only draw flat lines. */
function noData(rows: Record<string, string | number>[] | undefined): boolean {
  return !rows?.some((row) => Object.values(row).some((value) => typeof value === 'number' && value !== 0));
}

function ChartCard({
  title,
  children,
  testId,
  empty,
}: {
  title: string;
  children: React.ReactElement;
  testId: string;
  empty: string | null;
}) {
  return (
    <section className="card chart" aria-label={title} data-testid={testId}>
      <h2>{title}</h2>
      <div className="chart-area">
        {empty ? (
          <p className="chart-empty" data-testid={`${testId}-empty`}>
            <strong>No data yet.</strong> {empty}
          </p>
        ) : (
          <ResponsiveContainer width="100%" height={220}>
            {children}
          </ResponsiveContainer>
        )}
      </div>
    </section>
  );
}

export function HomePage() {
  const [stats, setStats] = useState<{ mrr: MrrStats; churn: ChurnStats; conversion: ConversionStats; forecast: ForecastStats } | null>(
    null,
  );
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const range = statsRange();
    Promise.all([
      api.get<MrrStats>('/v1/stats/mrr', range),
      api.get<ChurnStats>('/v1/stats/churn', range),
      api.get<ConversionStats>('/v1/stats/conversion', range),
      api.get<ForecastStats>('/v1/stats/forecast', { ...range, horizon: 6 }),
    ]).then(([mrr, churn, conversion, forecast]) => setStats({ mrr, churn, conversion, forecast }), setError);
  }, []);

  // The current month is still running: churn is shown for the last complete one.
  const lastFullMonth = stats?.churn.series.at(-2);
  const mrrData = stats?.mrr.series.map((p) => ({
    month: monthLabel(p.date),
    MRR: chartUnits(p.endingMrr),
    New: chartUnits(p.newMrr),
    Churned: chartUnits(p.churnedMrr),
  }));
  const churnData = stats?.churn.series.map((p) => ({
    month: monthLabel(p.date),
    'Customer churn': percent(p.customerChurnRate),
    'MRR churn': percent(p.mrrChurnRate),
  }));
  const conversionData = stats?.conversion.series.map((p) => ({
    month: monthLabel(p.date),
    Checkout: percent(p.paymentSessions.rate),
    Invoices: percent(p.invoices.rate),
    Trials: percent(p.trials.rate),
  }));
  const forecastData = stats?.forecast.series.map((p) => ({
    month: monthLabel(p.date),
    'Projected cash': chartUnits(p.cash),
    'Projected MRR': chartUnits(p.mrr),
  }));
  const amountTip = (value: unknown) => `${Number(value).toLocaleString(undefined, { minimumFractionDigits: 2 })} USDC`;
  const rateTip = (value: unknown) => `${Number(value).toFixed(2)} %`;

  return (
    <>
      <ErrorMessage error={error} />
      {stats && (
        <div className="metrics" data-testid="metrics">
          <Metric label="MRR" value={formatAmount(stats.mrr.summary.endingMrr)} />
          <Metric label="ARR" value={formatAmount(stats.mrr.summary.arr)} />
          <Metric label="Paying customers" value={stats.mrr.summary.customers} />
          <Metric
            label={`Customer churn (${lastFullMonth ? monthLabel(lastFullMonth.date) : 'last month'})`}
            value={lastFullMonth ? formatRate(lastFullMonth.customerChurnRate) : '—'}
          />
          <Metric label="Checkout conversion" value={formatRate(stats.conversion.summary.paymentSessions.rate)} />
          <Metric label="Projected cash (6 months)" value={formatAmount(stats.forecast.summary.projectedCash)} />
        </div>
      )}
      {stats && (
        <div className="charts">
          <ChartCard
            title="Monthly recurring revenue"
            testId="chart-mrr"
            empty={noData(mrrData) ? 'Revenue appears here once subscriptions are charged.' : null}
          >
            <LineChart data={mrrData} margin={{ left: 8, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" fontSize={12} />
              <YAxis fontSize={12} tickFormatter={units} width={56} />
              <Tooltip formatter={amountTip} />
              <Legend />
              <Line type="linear" dataKey="MRR" stroke="#2b59c3" strokeWidth={2} isAnimationActive={false} />
              <Line type="linear" dataKey="New" stroke="#12805c" isAnimationActive={false} />
              <Line type="linear" dataKey="Churned" stroke="#c2410c" isAnimationActive={false} />
            </LineChart>
          </ChartCard>
          <ChartCard title="Churn" testId="chart-churn" empty={noData(churnData) ? 'Churn appears here once subscribers cancel.' : null}>
            <BarChart data={churnData} margin={{ left: 8, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" fontSize={12} />
              <YAxis fontSize={12} unit="%" width={56} />
              <Tooltip formatter={rateTip} />
              <Legend />
              <Bar dataKey="Customer churn" fill="#c2410c" isAnimationActive={false} />
              <Bar dataKey="MRR churn" fill="#f59e0b" isAnimationActive={false} />
            </BarChart>
          </ChartCard>
          <ChartCard
            title="Conversion"
            testId="chart-conversion"
            empty={noData(conversionData) ? 'Conversion appears here once checkouts, invoices or trials are paid.' : null}
          >
            <LineChart data={conversionData} margin={{ left: 8, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" fontSize={12} />
              <YAxis fontSize={12} unit="%" width={56} />
              <Tooltip formatter={rateTip} />
              <Legend />
              <Line type="linear" dataKey="Checkout" stroke="#2b59c3" isAnimationActive={false} />
              <Line type="linear" dataKey="Invoices" stroke="#7c3aed" isAnimationActive={false} />
              <Line type="linear" dataKey="Trials" stroke="#12805c" isAnimationActive={false} />
            </LineChart>
          </ChartCard>
          <ChartCard
            title="Forecast (next 6 months)"
            testId="chart-forecast"
            empty={noData(forecastData) ? 'The forecast appears here once subscriptions are active.' : null}
          >
            <BarChart data={forecastData} margin={{ left: 8, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" fontSize={12} />
              <YAxis fontSize={12} tickFormatter={units} width={56} />
              <Tooltip formatter={amountTip} />
              <Legend />
              <Bar dataKey="Projected cash" fill="#2b59c3" isAnimationActive={false} />
              <Bar dataKey="Projected MRR" fill="#93b4f5" isAnimationActive={false} />
            </BarChart>
          </ChartCard>
        </div>
      )}
      <h2>Recent payments</h2>
      <PaginatedTable<SessionWithInvoice>
        caption="Recent payment sessions"
        hideCaption
        load={async (cursor) => withInvoiceNumbers(await api.list<PaymentSession>('/v1/payment-sessions', cursor, { limit: 5 }))}
        columns={[
          {
            header: 'Amount',
            cell: (s) => <Link to={detailPath('payments', s.id)}>{formatAmount(s.amount, s.currency)}</Link>,
            className: 'num',
          },
          { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
          { header: 'For', cell: paidFor },
          { header: 'Created', cell: (s) => formatDate(s.createdAt) },
        ]}
        empty="No payments yet."
      />
    </>
  );
}
