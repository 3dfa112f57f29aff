// Cancel at period end on a subscription's detail (issue 40, item 3): the pending cancellation as facts,
// and the action with its undo. The API refuses what it cannot schedule (at_risk, paused, the last
// period); the action is offered only where it applies.
import { useState } from 'react';
import { api } from '../api.ts';
import { formatDate } from '../format.ts';
import type { Subscription } from '../types.ts';
import { ConfirmButton } from './ConfirmButton.tsx';

/** The facts of a scheduled cancel (a fragment of the detail's <dl>); nothing when none is scheduled. */
export function PendingCancelFacts({ subscription }: { subscription: Subscription }) {
  if (!subscription.cancelAtPeriodEnd || subscription.status === 'cancelled') return null;
  const details = subscription.cancellationDetails;
  return (
    <>
      <dt>Cancels at period end</dt>
      <dd>
        <strong>{formatDate(subscription.cancelAt)}</strong>: nothing more is charged
        {details?.reason ? ` (${details.reason})` : ''}
      </dd>
    </>
  );
}

/** "Cancel at period end" on a trialing or active subscription with a next period, "Don't cancel" once scheduled. */
export function CancelAtPeriodEndAction({
  subscription,
  onChanged,
  onError,
}: {
  subscription: Subscription;
  onChanged: () => void;
  onError: (error: unknown) => void;
}) {
  const [reason, setReason] = useState('');
  const run = async (request: () => Promise<unknown>) => {
    onError(null);
    try {
      await request();
      onChanged();
    } catch (e) {
      onError(e);
    }
  };
  if (subscription.cancelAtPeriodEnd) {
    return (
      <ConfirmButton
        label="Don't cancel"
        tone="primary"
        question={`Keep this subscription renewing after ${formatDate(subscription.cancelAt)}?`}
        confirmLabel="Yes, keep it"
        onConfirm={() => run(() => api.post(`/v1/subscriptions/${subscription.id}/uncancel`, {}))}
      />
    );
  }
  if ((subscription.status !== 'trialing' && subscription.status !== 'active') || !subscription.nextChargeAt) return null;
  return (
    <ConfirmButton
      label="Cancel at period end"
      question={`Cancel on ${formatDate(subscription.nextChargeAt)}, when the next period would be charged? The current period runs to its end.`}
      confirmLabel="Yes, cancel then"
      onConfirm={() =>
        run(() =>
          api.post(`/v1/subscriptions/${subscription.id}/cancel`, {
            atPeriodEnd: true,
            ...(reason.trim() ? { reason: reason.trim() } : {}),
          }),
        )
      }
    >
      <label className="inline-field">
        Reason (optional)
        <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
      </label>
    </ConfirmButton>
  );
}
