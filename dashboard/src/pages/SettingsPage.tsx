// Settings: the account, the pinned API version, the payout address (from the
// business profile), the payout address and balance per chain, the origins allowed to use publishable keys, and
// which receipts are emailed to customers.
import { api } from '../api.ts';
import { ChainPayouts } from '../components/ChainPayouts.tsx';
import { ReceiptSettings } from '../components/ReceiptSettings.tsx';
import { ActionForm, Select } from '../components/Form.tsx';
import { navigate } from '../router.ts';
import { useSession } from '../session.tsx';
import { CURRENT_API_VERSION, SUPPORTED_API_VERSIONS } from '../shared.ts';
import { formatDate } from '../format.ts';

export function SettingsPage() {
  const { merchant, refresh } = useSession();
  if (!merchant) return null;
  return (
    <>
      <section className="card">
        <h2>Account</h2>
        <dl className="facts">
          <dt>Merchant</dt>
          <dd>
            <code>{merchant.id}</code>
          </dd>
          <dt>Name</dt>
          <dd>{merchant.name}</dd>
          <dt>Email</dt>
          <dd>
            {merchant.email ?? '—'} {merchant.emailVerified ? '(verified)' : '(not verified)'}
          </dd>
          <dt>Two-factor authentication</dt>
          <dd>{merchant.twoFactorEnabled ? 'On' : 'Off'}</dd>
          <dt>Rate limit per key</dt>
          <dd>{merchant.rateLimitPerMinute.toLocaleString()} requests per minute</dd>
          <dt>Payout address</dt>
          <dd>
            {merchant.payoutAddress ? (
              <code data-testid="payout-address">{merchant.payoutAddress}</code>
            ) : (
              'Not set: complete the business profile.'
            )}{' '}
            {merchant.payoutAddress && !merchant.business && (
              <small className="hint">(checkouts pay here; the business profile is not complete yet)</small>
            )}{' '}
            <button type="button" className="link" onClick={() => navigate('go-live')}>
              Edit in the business profile
            </button>
          </dd>
          <dt>Created</dt>
          <dd>{formatDate(merchant.createdAt)}</dd>
        </dl>
      </section>
      <ChainPayouts />
      <ActionForm
        title="API version"
        submitLabel="Pin version"
        action={async (form) => {
          await api.put('/v1/merchants/me/api-version', { apiVersion: String(form.get('apiVersion')) });
          await refresh();
        }}
      >
        <p>Requests without a Service-Version header use the pinned version. Current version: {CURRENT_API_VERSION}.</p>
        <Select label="Pinned version" name="apiVersion" defaultValue={merchant.apiVersion} options={SUPPORTED_API_VERSIONS} />
      </ActionForm>
      <ActionForm
        title="Allowed origins"
        submitLabel="Save origins"
        action={async (form) => {
          const origins = String(form.get('origins') ?? '')
            .split(/\s+/)
            .map((s) => s.trim())
            .filter(Boolean);
          await api.put('/v1/merchants/me/allowed-origins', { allowedOrigins: origins });
          await refresh();
        }}
      >
        <p>Web pages of these origins may call the API with publishable keys. One per line; * allows any origin.</p>
        <div className="field wide">
          <label htmlFor="origins">Origins</label>
          <textarea
            id="origins"
            name="origins"
            rows={4}
            defaultValue={merchant.allowedOrigins.join('\n')}
            placeholder="https://shop.example"
          />
        </div>
      </ActionForm>
      <ReceiptSettings />
    </>
  );
}
