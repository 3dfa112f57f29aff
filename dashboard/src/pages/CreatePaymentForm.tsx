// "Create payment" on the Payments page (issue 40, item 5): a payment session made from the dashboard,
// for a merchant who takes a one-off payment without writing code. What it gives back is the payment
// link: the session's hosted checkout URL, to copy and send to the customer.
import { useState } from 'react';
import { api } from '../api.ts';
import { ActionForm, Field, optionalText, text } from '../components/Form.tsx';
import { MoneyField } from '../components/MoneyField.tsx';
import { amountError, formatAmount, parseAmount } from '../format.ts';
import { expiryCountdown } from '../shared.ts';
import type { PaymentSession } from '../types.ts';

/** How long the link stays payable: the API's range is 5 minutes to 7 days. */
const EXPIRY_CHOICES = [
  { label: '30 minutes', seconds: 1_800 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 604_800 },
] as const;

export function CreatePaymentForm({ onCreated }: { onCreated: () => void }) {
  const [created, setCreated] = useState<PaymentSession | null>(null);
  // When it was created: the countdown is written from then (a link given out says how long it lasts).
  const [createdAt, setCreatedAt] = useState(0);
  const [copied, setCopied] = useState(false);
  return (
    <>
      <ActionForm
        title="Create a payment"
        submitLabel="Create payment link"
        action={async (form) => {
          const amount = parseAmount(text(form, 'amount'));
          if (!amount) throw new Error(`Amount: ${amountError(text(form, 'amount'))}`);
          const description = optionalText(form, 'description');
          const session = await api.post<PaymentSession>('/v1/payment-sessions', {
            amount,
            currency: 'USDC',
            expiresInSeconds: Number(text(form, 'expiresInSeconds')),
            ...(description ? { metadata: { description } } : {}),
          });
          setCreatedAt(Date.now());
          setCreated(session);
          setCopied(false);
          onCreated();
        }}
      >
        <div className="grid">
          <MoneyField label="Amount (USDC)" name="amount" required placeholder="25.00" />
          <Field label="Description (kept in metadata)" name="description" maxLength={500} />
          <div className="field">
            <label htmlFor="payment-expiry">Link expires after</label>
            <select id="payment-expiry" name="expiresInSeconds" defaultValue={String(EXPIRY_CHOICES[1].seconds)}>
              {EXPIRY_CHOICES.map((choice) => (
                <option key={choice.seconds} value={choice.seconds}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
        </div>
      </ActionForm>
      {created && (
        <div className="card" role="status" aria-label="Payment link">
          <p>
            Payment link for {formatAmount(created.amount, created.currency)}: send it to the customer.{' '}
            {expiryCountdown(created.expiresAt, createdAt)} ({new Date(created.expiresAt).toLocaleString()}).
          </p>
          <p className="copy-id">
            <a href={created.checkoutUrl} target="_blank" rel="noreferrer">
              {created.checkoutUrl}
            </a>{' '}
            <button
              type="button"
              className="link"
              onClick={async () => {
                await navigator.clipboard.writeText(created.checkoutUrl);
                setCopied(true);
              }}
            >
              {copied ? 'Copied' : 'Copy link'}
            </button>
          </p>
        </div>
      )}
    </>
  );
}
