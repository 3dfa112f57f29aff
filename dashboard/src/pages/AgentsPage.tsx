// Agents: the configuration form (drawn from the configuration the API
// returns, so new settings appear without a dashboard change), the activity
// feed, and escrow jobs with approve (and complete / reject when the agent wallet is the evaluator).
import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { FailureNote } from '../components/FailureNote.tsx';
import { ActionButton, ActionForm, Field, Select, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { MoneyField } from '../components/MoneyField.tsx';
import { amountError, formatAmount, formatDate, parseAmount, shortId } from '../format.ts';
import { chainName } from '../chain.ts';
import { useModeChains } from '../modeChains.ts';
import type { AgentActivity, AgentConfig, AgentJob } from '../types.ts';

type Section = Record<string, unknown>;

const KNOWN_CAPABILITIES: AgentConfig['enabledCapabilities'] = ['recovery', 'cashflow', 'pricing_intelligence'];
const CHOICES: Record<string, readonly string[]> = { strategy: ['once', 'twice', 'daily'], anomalySensitivity: ['low', 'medium', 'high'] };
const NOT_SETTINGS = new Set(['object', 'enabledCapabilities', 'agentWallet', 'livemode', 'createdAt', 'updatedAt']);

const humanise = (name: string) =>
  name
    .replace(/([A-Z])/g, ' $1')
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/\busd\b/gi, 'USD');

/** Labels people read, for the settings and values the API names in code; anything new falls back to `humanise`. */
const LABELS: Record<string, string> = {
  recovery: 'Recovery',
  cashflow: 'Cash flow',
  pricing_intelligence: 'Pricing intelligence',
  commerce: 'Escrow jobs',
  digestEnabled: 'Send a weekly digest',
  anomalySensitivity: 'Anomaly sensitivity',
  autoConvertToYield: 'Move idle funds to yield',
  minimumLiquidReserveCents: 'Always keep liquid (USD cents)',
  requireHumanApprovalAboveUsdCents: 'Ask me to approve jobs from (USD cents)',
  approvedVendors: 'Vendors that need no approval',
  monthlySpendCapUsdCents: 'Monthly auto-approval limit (USD cents)',
  strategy: 'Retry strategy',
  gracePeriodHours: 'Grace period (hours)',
  notificationTemplate: 'Message to the customer',
};
const label = (name: string) => LABELS[name] ?? humanise(name);

function SettingInput({ section, name, value }: { section: string; name: string; value: unknown }) {
  const id = `${section}.${name}`;
  const text = label(name);
  if (typeof value === 'boolean') {
    return (
      <label className="check">
        <input type="checkbox" name={id} defaultChecked={value} /> {text}
      </label>
    );
  }
  if (CHOICES[name]) {
    return (
      <div className="field">
        <label htmlFor={id}>{text}</label>
        <select id={id} name={id} defaultValue={String(value)}>
          {CHOICES[name]!.map((choice) => (
            <option key={choice}>{choice}</option>
          ))}
        </select>
      </div>
    );
  }
  if (Array.isArray(value)) {
    return (
      <div className="field wide">
        <label htmlFor={id}>{text} (one per line)</label>
        <textarea id={id} name={id} rows={3} defaultValue={value.join('\n')} />
      </div>
    );
  }
  if (typeof value === 'string' && value.length > 60) {
    return (
      <div className="field wide">
        <label htmlFor={id}>{text}</label>
        <textarea id={id} name={id} rows={3} defaultValue={value} />
      </div>
    );
  }
  return <Field label={text} name={id} type={typeof value === 'number' ? 'number' : 'text'} defaultValue={String(value ?? '')} />;
}

/** The PATCH body: every setting of every section, typed as the current configuration types it. */
function readConfigForm(form: FormData, config: AgentConfig): Record<string, unknown> {
  const body: Record<string, unknown> = { enabledCapabilities: form.getAll('enabledCapabilities').map(String) };
  for (const [section, settings] of Object.entries(config)) {
    if (NOT_SETTINGS.has(section) || !settings || typeof settings !== 'object' || Array.isArray(settings)) continue;
    const values: Section = {};
    for (const [name, current] of Object.entries(settings as Section)) {
      const raw = form.get(`${section}.${name}`);
      if (typeof current === 'boolean') values[name] = raw === 'on';
      else if (typeof current === 'number') values[name] = Number(raw);
      else if (Array.isArray(current))
        values[name] = String(raw ?? '')
          .split(/[\n,]/)
          .map((s) => s.trim())
          .filter(Boolean);
      else values[name] = String(raw ?? '');
    }
    body[section] = values;
  }
  return body;
}

function ConfigForm() {
  const [config, setConfig] = useState<AgentConfig | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    api.get<AgentConfig>('/v1/agents/config').then(setConfig, setError);
  }, []);
  if (!config) return <ErrorMessage error={error} />;
  const capabilities = [...new Set([...KNOWN_CAPABILITIES, ...config.enabledCapabilities])];
  const sections = Object.entries(config).filter(
    ([name, v]) => !NOT_SETTINGS.has(name) && v && typeof v === 'object' && !Array.isArray(v),
  ) as [string, Section][];
  return (
    <ActionForm
      key={JSON.stringify(config)}
      title="Configuration"
      submitLabel="Save configuration"
      action={async (form) => {
        setSaved(false);
        setConfig(await api.patch<AgentConfig>('/v1/agents/config', readConfigForm(form, config)));
        setSaved(true);
      }}
    >
      <p>
        Agent wallet: <code>{config.agentWallet?.address ?? 'created with the configuration'}</code>
      </p>
      <fieldset className="checkboxes">
        <legend>Enabled capabilities</legend>
        {capabilities.map((capability) => (
          <label key={capability}>
            <input
              type="checkbox"
              name="enabledCapabilities"
              value={capability}
              defaultChecked={config.enabledCapabilities.includes(capability)}
            />{' '}
            {label(capability)}
          </label>
        ))}
      </fieldset>
      {sections.map(([section, settings]) => (
        <fieldset key={section} className="grid">
          <legend>{label(section)}</legend>
          {Object.entries(settings).map(([name, value]) => (
            <SettingInput key={name} section={section} name={name} value={value} />
          ))}
        </fieldset>
      ))}
      {saved && (
        <p className="notice" role="status">
          Configuration saved.
        </p>
      )}
    </ActionForm>
  );
}

/** What the merchant can do with a job now: approve a proposal; decide as evaluator when that is the agent wallet. */
function JobActions({ job, agentWallet, reload }: { job: AgentJob; agentWallet: string | null; reload: () => void }) {
  if (job.status === 'proposed') {
    return (
      <ConfirmButton
        label="Approve"
        tone="primary"
        ariaLabel={`Approve job ${job.id}`}
        question={`Approve and fund the escrow with ${formatAmount(job.amount, job.currency)}?`}
        confirmLabel="Approve"
        onConfirm={() => api.post(`/v1/agents/jobs/${job.id}/approve`).then(reload)}
      />
    );
  }
  const decides = agentWallet !== null && job.evaluatorAddress.toLowerCase() === agentWallet.toLowerCase();
  if (!decides || (job.status !== 'funded' && job.status !== 'submitted')) return <>—</>;
  return (
    <span className="row-actions">
      {job.status === 'submitted' && (
        <ActionButton label="Complete" className="primary" action={() => api.post(`/v1/agents/jobs/${job.id}/complete`, {}).then(reload)} />
      )}
      <ConfirmButton
        label="Reject"
        ariaLabel={`Reject job ${job.id}`}
        question="Reject and refund the escrow?"
        onConfirm={() => api.post(`/v1/agents/jobs/${job.id}/reject`, {}).then(reload)}
      />
    </span>
  );
}

export function AgentsPage() {
  // Several chains in the mode: the merchant picks where the escrow runs (the agent wallet must hold USDC there).
  const chains = useModeChains();
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  const [agentWallet, setAgentWallet] = useState<string | null>(null);
  useEffect(() => {
    api.get<AgentConfig>('/v1/agents/config').then(
      (c) => setAgentWallet(c.agentWallet?.address ?? null),
      () => setAgentWallet(null),
    );
  }, []);
  return (
    <>
      <ConfigForm />
      <h2>Escrow jobs</h2>
      <ActionForm
        title="Propose a job"
        submitLabel="Create job"
        action={async (form) => {
          const amount = parseAmount(text(form, 'amount'));
          if (!amount) throw new Error(`Amount: ${amountError(text(form, 'amount'))}`);
          const chainId = text(form, 'chainId');
          await api.post('/v1/agents/jobs', {
            vendorAddress: text(form, 'vendorAddress'),
            description: text(form, 'description'),
            amount,
            currency: 'USDC',
            ...(chainId ? { chainId: Number(chainId) } : {}),
          });
          reload();
        }}
      >
        <div className="grid">
          <Field label="Vendor address" name="vendorAddress" required placeholder="0x…" />
          <Field label="Description" name="description" required maxLength={1000} />
          <MoneyField label="Amount (USDC)" name="amount" required />
          {chains.length > 1 && (
            <Select
              label="Network"
              name="chainId"
              defaultValue={String(chains[0]!.chainId)}
              options={chains.map((chain) => ({ value: String(chain.chainId), label: chain.network }))}
            />
          )}
        </div>
      </ActionForm>
      <PaginatedTable<AgentJob>
        caption="Jobs"
        reloadKey={version}
        load={(cursor) => api.list<AgentJob>('/v1/agents/jobs', cursor)}
        columns={[
          {
            header: 'Job',
            cell: (j) => (
              <>
                {j.description}
                <br />
                <code className="hint">{shortId(j.id)}</code>
              </>
            ),
          },
          { header: 'Vendor', cell: (j) => <code>{shortId(j.vendorAddress)}</code> },
          {
            header: 'Amount',
            // Where the escrow runs, under the amount when the mode has several chains (a column would not fit).
            cell: (j) => (
              <>
                {formatAmount(j.amount, j.currency)}
                {chains.length > 1 && j.chainId !== null && <div className="hint">{chainName(j.chainId)}</div>}
              </>
            ),
            className: 'num',
          },
          {
            header: 'Status',
            cell: (j) => (
              <>
                <StatusBadge status={j.status} />
                {j.status === 'failed' && (
                  <div>
                    <FailureNote code={j.failureCode} reason={j.failureReason} />
                  </div>
                )}
              </>
            ),
            className: 'wrap',
          },
          { header: 'Needs approval because', cell: (j) => j.approvalReasons.map(humanise).join(', ') || '—', className: 'wrap' },
          { header: 'Created', cell: (j) => formatDate(j.createdAt) },
          { header: 'Actions', cell: (j) => <JobActions job={j} agentWallet={agentWallet} reload={reload} /> },
        ]}
        empty="No jobs yet."
      />
      <h2>Activity</h2>
      <PaginatedTable<AgentActivity>
        caption="Agent activity"
        reloadKey={version}
        load={(cursor) => api.list<AgentActivity>('/v1/agents/activity', cursor)}
        columns={[
          { header: 'When', cell: (a) => formatDate(a.createdAt) },
          { header: 'Capability', cell: (a) => humanise(a.capability) },
          { header: 'Action', cell: (a) => a.actionType },
          { header: 'Outcome', cell: (a) => <StatusBadge status={a.outcome} /> },
          { header: 'Summary', cell: (a) => a.summary },
        ]}
        empty="The agent has not acted yet."
      />
    </>
  );
}
