// Webhooks: endpoints (secret shown once on create and rotate), enable and
// disable, send a test event, and each endpoint's deliveries with attempts,
// response codes and replay.
import { useState } from 'react';
import { api } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ActionButton, ActionForm, Field, Select, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { SecretOnce } from '../components/SecretOnce.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { formatDate } from '../format.ts';
import { EVENT_TYPES } from '../shared.ts';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '../types.ts';

const DELIVERY_STATUSES = [
  'sending',
  'succeeded',
  'failed',
  'permanently_failed',
  'interrupted',
] as const satisfies readonly WebhookDelivery['status'][];

function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [status, setStatus] = useState('');
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState('');
  return (
    <section className="card detail" aria-label={`Deliveries to ${endpoint.url}`}>
      <h2>
        Deliveries to <code>{endpoint.url}</code>
      </h2>
      <div className="filters">
        <Select label="Delivery status" options={['', ...DELIVERY_STATUSES]} value={status} onChange={(e) => setStatus(e.target.value)} />
        <button type="button" className="secondary" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
      </div>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <PaginatedTable<WebhookDelivery>
        caption="Delivery attempts"
        reloadKey={`${status}|${version}`}
        load={(cursor) => api.list<WebhookDelivery>('/v1/webhook-deliveries', cursor, { endpointId: endpoint.id, status })}
        columns={[
          { header: 'Event', cell: (d) => d.eventType },
          { header: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
          { header: 'Attempt', cell: (d) => (d.replay ? `${d.attempt} (replay ${d.replay})` : String(d.attempt)), className: 'num' },
          { header: 'Response', cell: (d) => (d.responseStatus === null ? (d.error ?? 'no response') : `HTTP ${d.responseStatus}`) },
          { header: 'Duration', cell: (d) => `${d.durationMs} ms`, className: 'num' },
          { header: 'Attempted', cell: (d) => formatDate(d.attemptedAt) },
          {
            header: 'Replay',
            cell: (d) => (
              <ActionButton
                label="Replay"
                action={async () => {
                  const replay = await api.post<{ replay: number; eventId: string }>(`/v1/webhook-deliveries/${d.id}/replay`);
                  setNotice(`Replay ${replay.replay} of ${replay.eventId} queued.`);
                  setVersion((v) => v + 1);
                }}
              />
            ),
          },
        ]}
        empty="No deliveries to this endpoint yet."
      />
    </section>
  );
}

export function WebhooksPage() {
  const [testType, setTestType] = useState('');
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [selected, setSelected] = useState<WebhookEndpoint | null>(null);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<unknown>(null);
  const reload = () => setVersion((v) => v + 1);

  return (
    <>
      <ActionForm
        title="Add an endpoint"
        submitLabel="Add endpoint"
        action={async (form) => {
          const events = form.getAll('events').map(String);
          const created = await api.post<WebhookEndpointWithSecret>('/v1/webhook-endpoints', {
            url: text(form, 'url'),
            events: events.length ? events : ['*'],
            description: text(form, 'description'),
          });
          setSecret({ label: `Signing secret of ${created.endpoint.url}`, value: created.signingSecret });
          reload();
        }}
      >
        <div className="grid">
          <Field
            label="Endpoint URL"
            name="url"
            type="url"
            required
            wide
            placeholder="https://example.com/webhooks"
            hint="https only; the host must resolve to public addresses."
          />
        </div>
        <p className="hint" data-testid="listen-help">
          Testing on your own machine? Endpoints cannot point at <code>localhost</code> or <code>127.0.0.1</code>. Run{' '}
          <code>npm run listen -- --forward-to http://localhost:4000/hooks</code> instead: it receives this mode's test events and forwards
          them, signed, to your local URL.
        </p>
        <div className="grid">
          <Field label="Description" name="description" maxLength={500} />
        </div>
        <fieldset className="checkboxes">
          <legend>Events (none checked = every event)</legend>
          <label>
            <input type="checkbox" name="events" value="*" /> Every event (*)
          </label>
          {EVENT_TYPES.map((type) => (
            <label key={type}>
              <input type="checkbox" name="events" value={type} /> {type}
            </label>
          ))}
        </fieldset>
      </ActionForm>
      {secret && <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorMessage error={error} />
      <div className="filters">
        <Select
          label="Test event type"
          options={[
            { value: '', label: 'webhook_endpoint.test' },
            ...EVENT_TYPES.map((type) => ({ value: type, label: `${type} (sample)` })),
          ]}
          value={testType}
          onChange={(e) => setTestType(e.target.value)}
        />
      </div>
      <PaginatedTable<WebhookEndpoint>
        caption="Endpoints"
        reloadKey={version}
        load={(cursor) => api.list<WebhookEndpoint>('/v1/webhook-endpoints', cursor)}
        onSelect={setSelected}
        selectedId={selected?.id}
        columns={[
          { header: 'URL', cell: (e) => e.url },
          { header: 'Status', cell: (e) => <StatusBadge status={e.status} /> },
          { header: 'Events', cell: (e) => e.events.join(', ') },
          { header: 'Secret', cell: (e) => <code>{e.signingSecretPrefix}…</code> },
          { header: 'Created', cell: (e) => formatDate(e.createdAt) },
          {
            header: 'Actions',
            cell: (e) => (
              <span className="row-actions">
                {e.status === 'active' ? (
                  <ActionButton label="Disable" action={() => api.post(`/v1/webhook-endpoints/${e.id}/disable`).then(reload)} />
                ) : (
                  <ActionButton label="Enable" action={() => api.post(`/v1/webhook-endpoints/${e.id}/enable`).then(reload)} />
                )}
                <ActionButton
                  label="Send test event"
                  action={async () => {
                    // No type: the API's default test event (webhook_endpoint.test).
                    const sent = await api.post<{ eventId: string; delivery: WebhookDelivery | null }>(
                      `/v1/webhook-endpoints/${e.id}/test`,
                      testType ? { type: testType } : undefined,
                    );
                    const outcome = sent.delivery
                      ? `first attempt ${sent.delivery.status.replace(/_/g, ' ')} (${sent.delivery.responseStatus === null ? (sent.delivery.error ?? 'no response') : `HTTP ${sent.delivery.responseStatus}`})`
                      : 'queued; its attempts appear under the deliveries';
                    setNotice(`Test event ${sent.eventId} sent to ${e.url}: ${outcome}.`);
                    setSelected(e);
                  }}
                />
                <ConfirmButton
                  label="Rotate secret"
                  question="Rotate the signing secret? The old one keeps signing for a while."
                  confirmLabel="Rotate"
                  onConfirm={async () => {
                    try {
                      const rotated = await api.post<WebhookEndpointWithSecret>(`/v1/webhook-endpoints/${e.id}/rotate-secret`);
                      setSecret({ label: `New signing secret of ${e.url}`, value: rotated.signingSecret });
                      reload();
                    } catch (err) {
                      setError(err);
                    }
                  }}
                />
              </span>
            ),
          },
        ]}
        empty="No endpoints yet."
      />
      {selected && <Deliveries key={`${selected.id}|${version}`} endpoint={selected} />}
      {!selected && <p className="hint">Choose an endpoint's URL to see its deliveries.</p>}
    </>
  );
}
