// A subscription's next charge (the upcoming invoice: its lines if usage stopped now, the total, what would be
// pulled and what the cap would leave to an open invoice) and, for a metered plan, its past period closes.
import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import { ErrorMessage } from './ErrorMessage.tsx';
import { Link } from './Link.tsx';
import { PaginatedTable } from './PaginatedTable.tsx';
import { detailPath } from '../router.ts';
import { formatAmount, formatDate } from '../format.ts';
import type { PeriodClose, PeriodCloseLine, Subscription, UpcomingInvoice } from '../types.ts';

const TERMINAL = new Set(['cancelled', 'lapsed', 'completed']);

/** One line as the close wrote it, with the usage's quantity and tiers when there are any. */
function lineDetail(line: PeriodCloseLine): string {
  if (line.type !== 'usage') return '';
  const tiers = (line.tiers ?? []).filter((t) => t.quantity !== '0').map((t) => `tier ${t.tier}: ${t.quantity} units`);
  return [`quantity ${line.quantity}`, line.packages ? `${line.packages} packages` : '', ...tiers].filter(Boolean).join(', ');
}

function Lines({ lines, currency, caption }: { lines: PeriodCloseLine[]; currency: string; caption: string }) {
  return (
    <table className="table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Detail</th>
          <th scope="col" className="num">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, i) => (
          <tr key={i}>
            <td>{line.description}</td>
            <td>{lineDetail(line) || '—'}</td>
            <td className="num">{formatAmount(line.amount, currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function UpcomingInvoiceSection({ subscription }: { subscription: Subscription }) {
  const [upcoming, setUpcoming] = useState<UpcomingInvoice | null>(null);
  const [error, setError] = useState<unknown>(null);
  const hasNext = !TERMINAL.has(subscription.status) && subscription.nextChargeAt !== null && !subscription.cancelAtPeriodEnd;
  useEffect(() => {
    setUpcoming(null);
    setError(null);
    if (!hasNext) return;
    let live = true;
    api
      .get<UpcomingInvoice>(`/v1/subscriptions/${subscription.id}/upcoming-invoice`)
      .then((u) => live && setUpcoming(u))
      .catch((e) => live && setError(e));
    return () => {
      live = false;
    };
  }, [subscription.id, subscription.nextChargeAt, subscription.status, hasNext]);
  if (!hasNext) return null;
  const currency = subscription.currency;
  return (
    <section aria-label="Upcoming invoice">
      <h3>Upcoming invoice</h3>
      <ErrorMessage error={error} />
      {upcoming && (
        <>
          <p>
            Period {upcoming.periodIndex + 1}, charged {formatDate(upcoming.nextChargeAt)}
            {upcoming.usageStart ? ` (usage so far since ${formatDate(upcoming.usageStart)})` : ''}
            {upcoming.closed ? ': closed, the charge is being retried' : ': if usage stopped now'}.
          </p>
          <Lines lines={upcoming.lines} currency={currency} caption="Lines of the next charge" />
          <dl className="facts">
            <dt>Total</dt>
            <dd>{formatAmount(upcoming.total, currency)}</dd>
            <dt>To be pulled</dt>
            <dd>{formatAmount(upcoming.amountToCharge, currency)}</dd>
            <dt>Over the cap</dt>
            <dd>
              {upcoming.remainder === '0'
                ? '—'
                : `${formatAmount(upcoming.remainder, currency)} (an open invoice; the cap is ${formatAmount(upcoming.cap, currency)})`}
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}

export function PeriodClosesSection({ subscription }: { subscription: Subscription }) {
  const currency = subscription.currency;
  return (
    <section aria-label="Period closes">
      <h3>Period closes</h3>
      <PaginatedTable<PeriodClose>
        caption="Period closes of this subscription"
        reloadKey={subscription.id}
        load={(cursor) => api.list<PeriodClose>(`/v1/subscriptions/${subscription.id}/period-closes`, cursor)}
        columns={[
          // A final close (after a cancel) bills the last charged period's usage: it is that period's, numbered so.
          { header: 'Period', cell: (c) => (c.final ? `${c.periodIndex}, final usage` : String(c.periodIndex + 1)) },
          {
            header: 'Usage billed',
            cell: (c) => (c.usageStart ? `${formatDate(c.usageStart)} – ${formatDate(c.usageEnd)}` : '—'),
          },
          {
            header: 'Lines',
            cell: (c) => c.lines.map((l) => `${l.description}: ${formatAmount(l.amount, currency)}`).join('; '),
          },
          { header: 'Total', cell: (c) => formatAmount(c.total, currency), className: 'num' },
          { header: 'Pulled', cell: (c) => formatAmount(c.charged, currency), className: 'num' },
          {
            header: 'Invoiced',
            cell: (c) =>
              c.remainderInvoiceId ? (
                <>
                  {formatAmount(c.remainder, currency)} (<Link to={detailPath('invoices', c.remainderInvoiceId)}>invoice</Link>)
                </>
              ) : (
                '—'
              ),
          },
        ]}
        empty="No period closed yet."
      />
    </section>
  );
}
