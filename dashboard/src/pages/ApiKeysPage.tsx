// API keys: issue with a preset (read-only, checkout-only, full) or custom
// scopes, the secret shown once, revoke with confirmation, and the audit log.
import { useState } from 'react';
import { api } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ActionForm, Field, Select, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { SecretOnce } from '../components/SecretOnce.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { formatDate, shortId } from '../format.ts';
import { useSession } from '../session.tsx';
import { SCOPES, SCOPE_PRESETS } from '../shared.ts';
import type { ApiKey, AuditEntry } from '../types.ts';

const PRESETS = Object.keys(SCOPE_PRESETS) as (keyof typeof SCOPE_PRESETS)[];

function IssueForm({ onIssued }: { onIssued: (secret: string) => void }) {
  const { mode, eligibility } = useSession();
  const [preset, setPreset] = useState<string>('read-only');
  const [kind, setKind] = useState('secret');
  return (
    <ActionForm
      title="Issue a key"
      submitLabel="Issue key"
      action={async (form) => {
        const scopes = form.getAll('scopes').map(String);
        if (preset === 'custom' && scopes.length === 0) throw new Error('Choose at least one scope.');
        const issued = await api.post<{ key: ApiKey; secret: string }>('/v1/api-keys', {
          name: text(form, 'name'),
          mode: text(form, 'keyMode'),
          kind,
          ...(preset === 'custom' ? { scopes } : { preset }),
        });
        onIssued(issued.secret);
      }}
    >
      <div className="grid">
        <Field label="Name" name="name" maxLength={100} placeholder="e.g. Billing server" />
        <Select
          label="Key mode"
          name="keyMode"
          defaultValue={mode}
          options={[{ value: 'test', label: 'Test' }, ...(eligibility?.eligible ? [{ value: 'live', label: 'Live' }] : [])]}
        />
        <Select
          label="Kind"
          value={kind}
          onChange={(e) => setKind(e.target.value)}
          options={[
            { value: 'secret', label: 'Secret (server)' },
            { value: 'publishable', label: 'Publishable (browser)' },
          ]}
        />
      </div>
      <fieldset className="radios">
        <legend>Scopes</legend>
        {[...PRESETS, 'custom'].map((name) => (
          <label key={name}>
            <input type="radio" name="preset" value={name} checked={preset === name} onChange={() => setPreset(name)} />
            {name === 'custom' ? 'Custom scopes' : `Preset: ${name}`}
            {name !== 'custom' && <small className="hint"> ({SCOPE_PRESETS[name as keyof typeof SCOPE_PRESETS].length} scopes)</small>}
          </label>
        ))}
      </fieldset>
      {preset === 'custom' && (
        <fieldset className="checkboxes">
          <legend>Custom scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope}>
              <input type="checkbox" name="scopes" value={scope} /> {scope}
            </label>
          ))}
        </fieldset>
      )}
    </ActionForm>
  );
}

export function ApiKeysPage() {
  const [secret, setSecret] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const reload = () => setVersion((v) => v + 1);
  return (
    <>
      <IssueForm
        onIssued={(value) => {
          setSecret(value);
          reload();
        }}
      />
      {secret && <SecretOnce label="Your new API key" secret={secret} onDone={() => setSecret(null)} />}
      <ErrorMessage error={error} />
      <h2>Keys</h2>
      <PaginatedTable<ApiKey>
        caption="API keys"
        reloadKey={version}
        load={(cursor) => api.list<ApiKey>('/v1/api-keys', cursor)}
        columns={[
          { header: 'Name', cell: (k) => k.name || '(unnamed)' },
          { header: 'Key', cell: (k) => <code>{`${k.prefix}…${k.last4}`}</code> },
          { header: 'Status', cell: (k) => <StatusBadge status={k.revoked ? 'revoked' : 'active'} /> },
          {
            header: 'Scopes',
            cell: (k) => <span className="scopes">{k.scopes.length === SCOPES.length ? 'all' : k.scopes.join(', ')}</span>,
          },
          { header: 'Last used', cell: (k) => formatDate(k.lastUsedAt) },
          { header: 'Created', cell: (k) => formatDate(k.createdAt) },
          {
            header: 'Revoke',
            cell: (k) =>
              k.revoked ? (
                formatDate(k.revokedAt)
              ) : (
                <ConfirmButton
                  label="Revoke"
                  ariaLabel={`Revoke ${k.prefix}…${k.last4}`}
                  question="Revoke this key? Requests with it fail immediately."
                  confirmLabel="Revoke"
                  onConfirm={() => api.post(`/v1/api-keys/${k.id}/revoke`).then(reload, setError)}
                />
              ),
          },
        ]}
        empty="No keys yet."
      />
      <h2>Audit log</h2>
      <PaginatedTable<AuditEntry>
        caption="Key audit log"
        reloadKey={version}
        load={(cursor) => api.list<AuditEntry>('/v1/api-keys/audit-log', cursor)}
        columns={[
          { header: 'When', cell: (a) => formatDate(a.createdAt) },
          { header: 'Action', cell: (a) => <StatusBadge status={a.action} /> },
          { header: 'Key', cell: (a) => <code>{shortId(a.apiKeyId)}</code> },
          { header: 'By', cell: (a) => a.actor },
          { header: 'Reason', cell: (a) => a.reason ?? '—' },
        ]}
        empty="No key events yet."
      />
    </>
  );
}
