// One event: its payload exactly as delivered, and every delivery attempt with the
// request body sent and the response received.
import { Link } from '../../components/Link.tsx';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { CopyId } from '../../components/CopyId.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { formatDate } from '../../format.ts';
import type { EventWithDeliveries } from '../../types.ts';
import { useObject } from './useObject.ts';

/** The page of the object an event is about, when the dashboard has one. */
const OBJECT_PAGES: Record<string, string> = { ps: 'payments', sub: 'subscriptions', cus: 'customers', inv: 'invoices' };

function pretty(body: string | null | undefined): string {
  if (!body) return '(empty)';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body; // not JSON (a cut-off request body, an HTML error page): shown as received
  }
}

export function EventDetailPage({ id }: { id: string }) {
  const { value: event, error } = useObject<EventWithDeliveries>(`/v1/events/${encodeURIComponent(id)}`);
  if (!event) return <ErrorMessage error={error} />;
  const objectPage = event.objectId ? OBJECT_PAGES[event.objectId.split('_')[0]!] : undefined;
  return (
    <>
      <section className="card" aria-label="Event">
        <h2>{event.type}</h2>
        <dl className="facts">
          <dt>Event</dt>
          <dd>
            <CopyId id={event.id} />
          </dd>
          <dt>Created</dt>
          <dd>{formatDate(event.created)}</dd>
          <dt>About</dt>
          <dd>
            {event.objectId ? (
              objectPage ? (
                <Link to={`${objectPage}/${event.objectId}`}>{event.objectId}</Link>
              ) : (
                <code>{event.objectId}</code>
              )
            ) : (
              '—'
            )}
          </dd>
        </dl>
        <h3>Payload</h3>
        <pre className="json payload" aria-label="Payload">
          {JSON.stringify(event.data, null, 2)}
        </pre>
      </section>
      <section className="card" aria-label="Delivery attempts">
        <h2>Delivery attempts</h2>
        {event.deliveries.length === 0 && <p className="empty">Not delivered to any endpoint (none subscribed to this kind).</p>}
        {event.deliveries.map((d) => (
          <details key={d.id} className="delivery">
            <summary>
              <StatusBadge status={d.status} /> attempt {d.attempt}
              {d.replay ? ` (replay ${d.replay})` : ''} to <code>{d.endpointUrl}</code>:{' '}
              {d.responseStatus === null ? (d.error ?? 'no response') : `HTTP ${d.responseStatus}`} · {formatDate(d.attemptedAt)}
            </summary>
            <h4>Request body</h4>
            <pre className="json payload">{pretty(d.requestBody)}</pre>
            <h4>Response body</h4>
            <pre className="json payload">{pretty(d.responseBodyExcerpt)}</pre>
          </details>
        ))}
      </section>
    </>
  );
}
