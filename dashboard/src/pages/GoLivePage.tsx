// Go live: the three live-mode checks (business onboarding, email
// verification, two-factor authentication with a QR code), each done here.
import { useEffect, useState } from 'react';
import QRCode from 'qrcode';
import { api } from '../api.ts';
import { ActionForm, Field, Select, text } from '../components/Form.tsx';
import { useSession } from '../session.tsx';
import { formatDate } from '../format.ts';

const SECTORS = [
  'saas',
  'ecommerce',
  'marketplace',
  'digital_goods',
  'gaming',
  'financial_services',
  'education',
  'nonprofit',
  'professional_services',
  'media',
  'travel',
  'other',
];

function Check({ passed, title, at }: { passed: boolean; title: string; at: string | null | undefined }) {
  return (
    <li className={passed ? 'passed' : 'pending'}>
      <span aria-hidden="true">{passed ? '✓' : '○'}</span> {title}: {passed ? `done ${formatDate(at)}` : 'to do'}
    </li>
  );
}

function TwoFactor({ onDone }: { onDone: () => Promise<void> }) {
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauthUri: string } | null>(null);
  const [qr, setQr] = useState('');
  useEffect(() => {
    if (enrolment) void QRCode.toDataURL(enrolment.otpauthUri, { margin: 1, width: 200 }).then(setQr);
  }, [enrolment]);
  if (!enrolment) {
    return (
      <ActionForm
        title="Two-factor authentication"
        submitLabel="Set up two-factor authentication"
        action={async () => setEnrolment(await api.post('/v1/merchants/me/two-factor'))}
      >
        <p>Use an authenticator app (TOTP).</p>
      </ActionForm>
    );
  }
  return (
    <ActionForm
      title="Two-factor authentication"
      submitLabel="Confirm code"
      action={async (form) => {
        await api.post('/v1/merchants/me/two-factor/confirm', { code: text(form, 'code') });
        setEnrolment(null);
        await onDone();
      }}
    >
      <p>Scan the QR code with your authenticator app, or enter the secret, then type the 6-digit code it shows.</p>
      {qr && <img className="qr" src={qr} width={200} height={200} alt="QR code of the two-factor secret" />}
      <p>
        Secret: <code data-testid="totp-secret">{enrolment.secret}</code>
      </p>
      <Field label="6-digit code" name="code" required inputMode="numeric" pattern="[0-9]{6}" autoComplete="one-time-code" />
    </ActionForm>
  );
}

/** Where the last code went: kept for this tab's session so the code field survives a reload. */
const SENT_TO_KEY = 'stablepay.emailVerificationSentTo';

function useSentTo(): [string | null, (to: string | null) => void] {
  const [sentTo, setState] = useState<string | null>(() => sessionStorage.getItem(SENT_TO_KEY));
  const set = (to: string | null) => {
    if (to) sessionStorage.setItem(SENT_TO_KEY, to);
    else sessionStorage.removeItem(SENT_TO_KEY);
    setState(to);
  };
  return [sentTo, set];
}

function EmailVerification({ email, onDone }: { email: string | null; onDone: () => Promise<void> }) {
  const [sentTo, setSentTo] = useSentTo();
  return (
    <>
      <ActionForm
        title="Email verification"
        submitLabel={sentTo ? 'Send a new code' : 'Send code'}
        action={async (form) => {
          const started = await api.post<{ email: string }>('/v1/merchants/me/email-verification', {
            email: text(form, 'email') || undefined,
          });
          setSentTo(started.email);
        }}
      >
        <Field label="Email" name="email" type="email" defaultValue={email ?? ''} required />
      </ActionForm>
      {sentTo && (
        <ActionForm
          submitLabel="Verify"
          action={async (form) => {
            await api.post('/v1/merchants/me/email-verification/confirm', { code: text(form, 'code') });
            setSentTo(null);
            await onDone();
          }}
        >
          <p role="status">A 6-digit code was sent to {sentTo}.</p>
          <Field label="Verification code" name="code" required inputMode="numeric" pattern="[0-9]{6}" autoComplete="one-time-code" />
        </ActionForm>
      )}
    </>
  );
}

export function GoLivePage() {
  const { merchant, eligibility, refresh } = useSession();
  if (!merchant || !eligibility) return null;
  const business = merchant.business;
  return (
    <>
      <section className="card" aria-label="Live-mode checks">
        <h2>{eligibility.eligible ? 'Live mode is available' : 'Live mode is locked'}</h2>
        <ul className="checks">
          <Check
            passed={eligibility.checks.businessOnboarding.passed}
            title="Business onboarding"
            at={eligibility.checks.businessOnboarding.completedAt}
          />
          <Check
            passed={eligibility.checks.emailVerification.passed}
            title="Email verification"
            at={eligibility.checks.emailVerification.completedAt}
          />
          <Check
            passed={eligibility.checks.twoFactor.passed}
            title="Two-factor authentication"
            at={eligibility.checks.twoFactor.completedAt}
          />
        </ul>
        {eligibility.reasons.length > 0 && (
          <ul className="reasons">
            {eligibility.reasons.map((reason) => (
              <li key={reason.code}>{reason.message}</li>
            ))}
          </ul>
        )}
      </section>
      <ActionForm
        title="Business profile"
        submitLabel="Save business profile"
        action={async (form) => {
          await api.put('/v1/merchants/me/business-profile', {
            businessName: text(form, 'businessName'),
            sector: text(form, 'sector'),
            country: text(form, 'country').toUpperCase(),
            payoutAddress: text(form, 'payoutAddress'),
          });
          await refresh();
        }}
      >
        <div className="grid">
          <Field label="Business name" name="businessName" required defaultValue={business?.name} maxLength={200} />
          <Select
            label="Sector"
            name="sector"
            defaultValue={business?.sector ?? 'saas'}
            options={SECTORS.map((s) => ({ value: s, label: s.replace(/_/g, ' ') }))}
          />
          <Field label="Country (ISO code)" name="country" required defaultValue={business?.country} maxLength={2} placeholder="DE" />
          <Field label="Payout address" name="payoutAddress" required wide defaultValue={business?.payoutAddress} placeholder="0x…" />
        </div>
      </ActionForm>
      {!merchant.emailVerified && <EmailVerification email={merchant.email} onDone={refresh} />}
      {!merchant.twoFactorEnabled && <TwoFactor onDone={refresh} />}
    </>
  );
}
