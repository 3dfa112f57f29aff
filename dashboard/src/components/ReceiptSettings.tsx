// Receipt emails per kind (issue 40, item 5): which money events email the customer a receipt, for the
// dashboard's mode (GET/PUT /v1/merchants/me/receipt-settings). Saved all four at once.
import { useEffect, useState } from 'react';
import { api, errorMessage, getMode } from '../api.ts';
import type { components } from '../api/generated/openapi.ts';
import { ActionForm } from './Form.tsx';

type ReceiptSettingsAnswer = components['schemas']['ReceiptSettings'];
type Switch = 'payment' | 'subscriptionCharge' | 'refund' | 'invoice';

const SWITCHES: { name: Switch; label: string }[] = [
  { name: 'payment', label: 'Successful payments' },
  { name: 'subscriptionCharge', label: 'Subscription charges' },
  { name: 'refund', label: 'Refunds' },
  { name: 'invoice', label: 'Paid invoices' },
];

export function ReceiptSettings() {
  const [settings, setSettings] = useState<ReceiptSettingsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mode = getMode();
  useEffect(() => {
    api.get<ReceiptSettingsAnswer>('/v1/merchants/me/receipt-settings').then(setSettings, (e) => setError(errorMessage(e)));
  }, [mode]);

  if (error)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (!settings) return null;
  return (
    <ActionForm
      key={`${mode}-${JSON.stringify(settings)}`}
      title="Customer receipts"
      submitLabel="Save receipts"
      action={async (form) => {
        const body = Object.fromEntries(SWITCHES.map(({ name }) => [name, form.get(name) === 'on']));
        setSettings(await api.put<ReceiptSettingsAnswer>('/v1/merchants/me/receipt-settings', body));
      }}
    >
      <p>
        Email the customer a receipt when the money moves, if their email is known (the invoice's email, or the customer of the subscription
        or of the paying wallet). {mode === 'live' ? 'Live' : 'Test'} mode only.
      </p>
      {SWITCHES.map(({ name, label }) => (
        <label className="check" key={name}>
          <input type="checkbox" name={name} defaultChecked={settings[name]} data-testid={`receipt-${name}`} /> {label}
        </label>
      ))}
    </ActionForm>
  );
}
