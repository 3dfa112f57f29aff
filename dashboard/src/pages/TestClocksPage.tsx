// Test clocks (test mode only, issue #30): create a clock at a frozen time, attach payer wallets,
// advance it with presets, and see what fired (the events naming the clock) and what is on it.
import { useCallback, useEffect, useState } from 'react';
import { api, listAll } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ActionButton, ActionForm, Field, text } from '../components/Form.tsx';
import { Link } from '../components/Link.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { Timeline } from '../components/Timeline.tsx';
import { formatDate, shortId } from '../format.ts';
import { detailPath } from '../router.ts';
import type { ApiEvent, Subscription, TestClock } from '../types.ts';

const DAY_MS = 86_400_000;
/** How often an advancing clock is read again until it is ready. */
const POLL_MS = 1_000;

/** The same day and time one calendar month later (clamped to the month's last day, as billing periods are). */
export function plusOneMonth(iso: string): string {
  const date = new Date(iso);
  const day = date.getUTCDate();
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next.toISOString();
}

/** `<input type="datetime-local">` speaks local time; the API speaks ISO 8601 with an offset. */
const fromLocalInput = (value: string): string => new Date(value).toISOString();
const toLocalInput = (iso: string): string => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** The clock, read again every second while it is advancing. */
function useClock(initial: TestClock, onChange: () => void): [TestClock, (clock: TestClock) => void] {
  const [clock, setClock] = useState(initial);
  useEffect(() => setClock(initial), [initial]);
  useEffect(() => {
    if (clock.status !== 'advancing') return;
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the callback catches its own failures
    const timer = setTimeout(async () => {
      try {
        const fresh = await api.get<TestClock>(`/v1/test-clocks/${clock.id}`);
        setClock(fresh);
        if (fresh.status !== 'advancing') onChange();
      } catch {
        setClock({ ...clock });
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [clock, onChange]);
  return [clock, setClock];
}

function ClockDetail({ initial, onChanged, onDeleted }: { initial: TestClock; onChanged: () => void; onDeleted: () => void }) {
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => {
    setVersion((v) => v + 1);
    onChanged();
  }, [onChanged]);
  const [clock, setClock] = useClock(initial, refresh);
  const [events, setEvents] = useState<ApiEvent[]>([]);
  const [subscriptions, setSubscriptions] = useState<Subscription[]>([]);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    // Fire and forget: the load catches its own failures and shows them.
    void (async () => {
      try {
        const fired = await listAll<ApiEvent>('/v1/events', { testClock: clock.id }, 500);
        const subs = (
          await Promise.all(clock.wallets.map((w) => listAll<Subscription>('/v1/subscriptions', { q: w.walletAddress }, 100)))
        ).flat();
        if (live) {
          setEvents(fired);
          setSubscriptions(subs);
          setError(null);
        }
      } catch (e) {
        if (live) setError(e);
      }
    })();
    return () => void (live = false);
  }, [clock.id, clock.wallets, version]);

  const advanceTo = async (iso: string) => {
    setClock(await api.post<TestClock>(`/v1/test-clocks/${clock.id}/advance`, { frozenTime: iso }));
  };
  const nextRenewal = subscriptions
    .map((s) => s.nextChargeAt)
    .filter((at): at is string => at !== null && Date.parse(at) > Date.parse(clock.frozenTime))
    .sort()[0];
  const ready = clock.status === 'ready';
  const objects = [...new Map(events.filter((e) => e.objectId).map((e) => [e.objectId!, e.type.split('.')[0]!])).entries()];

  return (
    <section className="card detail" aria-label={`Test clock ${clock.name}`}>
      <h2>
        {clock.name} <StatusBadge status={clock.status} />
      </h2>
      <p data-testid="clock-time">
        Clock time: <time dateTime={clock.frozenTime}>{formatDate(clock.frozenTime)}</time>
        {clock.advancingTo && (
          <>
            {' '}
            → advancing to <time dateTime={clock.advancingTo}>{formatDate(clock.advancingTo)}</time>
          </>
        )}
      </p>
      <ErrorMessage error={error} />
      <div className="row-actions" role="group" aria-label="Advance the clock">
        <ActionButton label="+1 day" action={() => advanceTo(new Date(Date.parse(clock.frozenTime) + DAY_MS).toISOString())} />
        <ActionButton label="+1 month" action={() => advanceTo(plusOneMonth(clock.frozenTime))} />
        {nextRenewal && <ActionButton label={`To the next renewal (${formatDate(nextRenewal)})`} action={() => advanceTo(nextRenewal)} />}
      </div>
      {!ready && <p className="hint">Advancing: the clock is ready again once the chain and every workflow on it caught up.</p>}
      <ActionForm
        title="Advance to a time"
        submitLabel="Advance"
        action={async (form) => {
          await advanceTo(fromLocalInput(text(form, 'frozenTime')));
        }}
      >
        <div className="grid">
          <Field
            label="New clock time"
            name="frozenTime"
            type="datetime-local"
            required
            defaultValue={toLocalInput(clock.frozenTime)}
            hint="Forward only, at most 400 days per advance."
          />
        </div>
      </ActionForm>
      <ActionForm
        title="Attach payer wallets"
        submitLabel="Attach"
        action={async (form) => {
          const wallets = text(form, 'wallets')
            .split(/[\s,]+/)
            .filter(Boolean);
          setClock(await api.post<TestClock>(`/v1/test-clocks/${clock.id}/wallets`, { wallets }));
          refresh();
        }}
      >
        <div className="grid">
          <Field
            label="Wallet addresses"
            name="wallets"
            required
            wide
            placeholder="0x…, 0x…"
            hint="Their subscriptions with you follow this clock from now on (10 wallets per clock)."
          />
        </div>
      </ActionForm>
      <h3>Attached objects</h3>
      <ul aria-label="Attached wallets">
        {clock.wallets.map((w) => (
          <li key={w.walletAddress}>
            Wallet <code>{w.walletAddress}</code>
            <ul>
              {subscriptions
                .filter((s) => s.customer.walletAddress.toLowerCase() === w.walletAddress)
                .map((s) => (
                  <li key={s.id}>
                    <Link to={detailPath('subscriptions', s.id)}>Subscription {shortId(s.id)}</Link> <StatusBadge status={s.status} />
                    {s.nextChargeAt && <> next charge {formatDate(s.nextChargeAt)}</>}
                  </li>
                ))}
            </ul>
          </li>
        ))}
        {clock.wallets.length === 0 && <li>No wallets attached.</li>}
      </ul>
      {objects.length > 0 && (
        <p>
          Objects in the timeline:{' '}
          {objects.map(([id, kind], i) => (
            <span key={id}>
              {i > 0 && ', '}
              {kind === 'subscription' ? (
                <Link to={detailPath('subscriptions', id)}>{shortId(id)}</Link>
              ) : kind === 'invoice' ? (
                <Link to={detailPath('invoices', id)}>{shortId(id)}</Link>
              ) : (
                <code>{shortId(id)}</code>
              )}
            </span>
          ))}
        </p>
      )}
      <Timeline
        label="What fired on this clock"
        entries={events.map((e) => ({ at: e.created, title: e.type, detail: e.objectId ? <code>{e.objectId}</code> : undefined }))}
      />
      <ConfirmButton
        label="Delete clock"
        question="Delete this clock? Its subscriptions are cancelled, its open invoices voided and its open sessions expired."
        confirmLabel="Delete clock"
        onConfirm={async () => {
          try {
            await api.post(`/v1/test-clocks/${clock.id}/delete`);
            onDeleted();
          } catch (e) {
            setError(e);
          }
        }}
      />
    </section>
  );
}

export function TestClocksPage() {
  const [version, setVersion] = useState(0);
  const [selected, setSelected] = useState<TestClock | null>(null);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const afterDelete = useCallback(() => {
    setSelected(null);
    reload();
  }, [reload]);

  return (
    <>
      <p className="hint">
        A test clock moves time for the subscriptions, payment sessions and invoices on it, and the chain they are paid on (by default a
        chain of the clock's own, forked from the test chain, so other test objects keep real time): script months of billing in seconds.
        Chain time only moves forward.
      </p>
      <ActionForm
        title="Create a test clock"
        submitLabel="Create clock"
        action={async (form) => {
          const wallets = text(form, 'wallets')
            .split(/[\s,]+/)
            .filter(Boolean);
          const created = await api.post<TestClock>('/v1/test-clocks', {
            name: text(form, 'name'),
            frozenTime: fromLocalInput(text(form, 'frozenTime')),
            wallets,
          });
          setSelected(created);
          reload();
        }}
      >
        <div className="grid">
          <Field label="Name" name="name" required maxLength={200} />
          <Field
            label="Frozen time"
            name="frozenTime"
            type="datetime-local"
            required
            defaultValue={toLocalInput(new Date(Date.now() + 3_600_000).toISOString())}
            hint="Not before the test chain's time."
          />
          <Field label="Wallets (optional)" name="wallets" wide placeholder="0x…, 0x…" />
        </div>
      </ActionForm>
      <PaginatedTable<TestClock>
        caption="Test clocks"
        reloadKey={version}
        load={(cursor) => api.list<TestClock>('/v1/test-clocks', cursor)}
        onSelect={setSelected}
        selectedId={selected?.id}
        columns={[
          { header: 'Name', cell: (c) => c.name },
          { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
          { header: 'Clock time', cell: (c) => formatDate(c.frozenTime) },
          { header: 'Wallets', cell: (c) => String(c.wallets.length), className: 'num' },
          { header: 'Created', cell: (c) => formatDate(c.createdAt) },
        ]}
        empty="No test clocks yet."
      />
      {selected && <ClockDetail key={selected.id} initial={selected} onChanged={reload} onDeleted={afterDelete} />}
    </>
  );
}
