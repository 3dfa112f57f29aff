// What a refund that has not moved yet is waiting for, and the way out: a `pending` refund waits for
// the payout wallet (granting the refund allowance above carries it on by itself), a `requires_action`
// one for the customer's address on the claim page; either can be cancelled, which releases its amount.
import { useState } from 'react';
import { api, errorMessage } from '../api.ts';
import { ConfirmButton } from './ConfirmButton.tsx';
import { RECIPIENT_REASONS, type Refund } from '../types.ts';

export function RefundNextStep(props: { refund: Refund; onChange: () => void }) {
  const { refund } = props;
  const [error, setError] = useState<string | null>(null);
  const recipient =
    refund.recipient && refund.recipientSource ? (
      <span className="hint">
        To <code>{refund.recipient}</code> ({RECIPIENT_REASONS[refund.recipientSource]}).
      </span>
    ) : null;
  if (refund.status !== 'pending' && refund.status !== 'requires_action') return recipient ?? <>—</>;
  const waiting =
    refund.status === 'requires_action' ? (
      <span data-testid="refund-waiting">
        Waiting for the customer to give the address on the <a href={refund.claimUrl ?? '#'}>refund-claim page</a> (emailed when the invoice
        has their email).
      </span>
    ) : (
      <span data-testid="refund-waiting">
        Waiting for your payout wallet: grant the refund allowance above (this refund then carries on by itself) or sign its transfer.
      </span>
    );
  return (
    <span className="wrap">
      {waiting} {recipient}{' '}
      <ConfirmButton
        label="Cancel"
        ariaLabel={`Cancel refund ${refund.id}`}
        question="Cancel this refund? Its amount becomes refundable again."
        confirmLabel="Cancel refund"
        onConfirm={async () => {
          try {
            await api.post(`/v1/refunds/${refund.id}/cancel`, {});
            setError(null);
            props.onChange();
          } catch (e) {
            setError(errorMessage(e));
          }
        }}
      />
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </span>
  );
}
