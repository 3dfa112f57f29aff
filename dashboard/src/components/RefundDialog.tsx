// One-click refund of a payment: prefilled with what remains refundable (the API's `amountRefundable`:
// paid in total minus refunds made or pending) and capped at it; a smaller amount refunds part. A confirmation
// because it moves money, then the outcome. A refund the allowance covers is sent by the operator; one
// it does not is signed by the payout wallet as an EIP-3009 transfer, which the relay submits.
import { useState } from 'react';
import { api, errorMessage } from '../api.ts';
import { amountError, formatAmount, parseAmount } from '../format.ts';
import { AmountPreview } from './MoneyField.tsx';
import { decimalAmount } from '../csv.ts';
import { EIP3009_TYPES, EIP712_DOMAIN_TYPE } from '../shared.ts';
import { RECIPIENT_REASONS, type Refund, type RefundAllowance, type RefundRecipient } from '../types.ts';

function recipientSentence(preview: RefundRecipient | null): string {
  if (!preview) return 'Finding who paid…';
  if (preview.requiresClaim) return 'Several wallets paid this, so the customer will be asked for the address on a refund-claim page.';
  if (!preview.recipient || !preview.recipientSource) return 'Nobody can be shown to have paid this.';
  return `Goes to ${preview.recipient}: ${RECIPIENT_REASONS[preview.recipientSource]}.`;
}

const TRANSFER_TYPES = { EIP712Domain: EIP712_DOMAIN_TYPE, TransferWithAuthorization: EIP3009_TYPES.TransferWithAuthorization };

export function RefundDialog(props: { paymentSessionId: string; refundable: string; onDone?: () => void }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(decimalAmount(props.refundable));
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<RefundRecipient | null>(null);

  async function signAndSend(refund: Refund) {
    // The token domain of the chain the refund goes out on (the payment's), not the mode's first chain's.
    const info = await api.get<RefundAllowance>(`/v1/refunds/allowance?chainId=${refund.chainId}`);
    if (!refund.instructions || !info.permit) throw new Error('This refund has no transfer to sign.');
    const now = Math.floor(Date.now() / 1000);
    const { randomNonce, signTypedDataAs } = await import('./wallet.ts');
    const authorization = {
      from: refund.instructions.from,
      to: refund.instructions.to,
      value: refund.amount,
      validAfter: String(now - 60),
      validBefore: String(now + 3600),
      nonce: randomNonce(),
    };
    const signature = await signTypedDataAs(refund.instructions.from, {
      domain: info.permit.domain,
      types: TRANSFER_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: authorization,
    });
    await api.post(`/v1/refunds/${refund.id}/authorization`, { authorization, signature });
  }

  /** The amount in base units, or undefined with the reason shown: checked before the confirmation is asked. */
  function validAmount(): string | undefined {
    const base = parseAmount(amount);
    if (!base || base === '0') return void setError(amountError(amount) ?? 'Enter an amount above zero.');
    if (BigInt(base) > BigInt(props.refundable))
      return void setError(`At most ${formatAmount(props.refundable, 'USDC')} remains refundable.`);
    setError(null);
    return base;
  }

  async function refund() {
    const base = validAmount();
    if (!base) return setConfirming(false);
    setBusy(true);
    setError(null);
    try {
      const created = await api.post<Refund>('/v1/refunds', {
        paymentSessionId: props.paymentSessionId,
        amount: base,
        reason: reason.trim() || undefined,
      });
      if (created.status === 'requires_action') {
        setOutcome(`Refund ${created.id} waits for the customer to give the address on the refund-claim page: ${created.claimUrl}`);
      } else if (created.method === 'allowance') {
        setOutcome(`Refund ${created.id} is being sent from your refund allowance; it completes by itself.`);
      } else {
        setOutcome(`Refund ${created.id}: your refund allowance does not cover it. Sign the transfer with your payout wallet.`);
        await signAndSend(created);
        setOutcome(`Refund ${created.id} is signed and being sent.`);
      }
      props.onDone?.();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  /** Each opening starts from what remains refundable now (an earlier refund lowered it). */
  function openDialog() {
    setAmount(decimalAmount(props.refundable));
    setOutcome(null);
    setError(null);
    setConfirming(false);
    setPreview(null);
    setOpen(true);
    api
      .get<RefundRecipient>(`/v1/refunds/recipient?paymentSessionId=${encodeURIComponent(props.paymentSessionId)}`)
      .then(setPreview, (e) => setError(errorMessage(e)));
  }

  // Nothing left to refund: no button. An open dialog stays, so its outcome is still shown after
  // the page reloads the session (whose refundable amount the refund just lowered, maybe to 0).
  if (!open) {
    if (props.refundable === '0') return null;
    return (
      <button type="button" className="secondary" aria-label={`Refund ${props.paymentSessionId}`} onClick={openDialog}>
        Refund
      </button>
    );
  }
  return (
    <div role="dialog" aria-label="Refund payment" className="refund-dialog">
      <p className="hint">Refundable: {formatAmount(props.refundable, 'USDC')} (paid in total, less refunds made or pending).</p>
      <p data-testid="refund-recipient">{recipientSentence(preview)}</p>
      <label>
        Amount (USDC)
        <input name="refundAmount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        <AmountPreview text={amount} />
      </label>
      <label>
        Reason
        <input name="refundReason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {outcome && <p role="status">{outcome}</p>}
      {!outcome &&
        (confirming ? (
          <span className="confirm" role="group" aria-label="Confirm refund">
            <span>
              Send {amount} USDC back to {preview?.recipient ?? 'the customer'}? This moves money.
            </span>
            <button type="button" className="danger" disabled={busy} autoFocus onClick={() => void refund()}>
              Confirm refund
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" className="danger" onClick={() => validAmount() && setConfirming(true)}>
            Refund {amount} USDC
          </button>
        ))}
      <button type="button" className="secondary" onClick={() => setOpen(false)}>
        Close
      </button>
    </div>
  );
}
