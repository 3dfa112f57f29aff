// One subscription on its own page: its facts, charges and cancel action (shared with the
// list's inline view), and a timeline of its periods, charges, cancellation and events.
import { useEffect, useState } from 'react';
import { listAll } from '../../api.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { FailureNote } from '../../components/FailureNote.tsx';
import { eventEntries, ObjectEventsError, useObjectEvents } from '../../components/ObjectEvents.tsx';
import { Timeline, type TimelineEntry } from '../../components/Timeline.tsx';
import { TxHash } from '../../components/TxHash.tsx';
import { formatAmount } from '../../format.ts';
import type { Charge, Plan, Subscription } from '../../types.ts';
import { SubscriptionDetail } from '../SubscriptionsPage.tsx';
import { useObject } from './useObject.ts';

export function SubscriptionDetailPage({ id }: { id: string }) {
  const { value: subscription, error, reload } = useObject<Subscription>(`/v1/subscriptions/${encodeURIComponent(id)}`);
  const [plans, setPlans] = useState<Map<string, Plan>>(new Map());
  const [charges, setCharges] = useState<Charge[]>([]);
  const [listError, setListError] = useState<unknown>(null);
  const events = useObjectEvents(id);
  useEffect(() => {
    listAll<Plan>('/v1/subscription-plans').then((all) => setPlans(new Map(all.map((p) => [p.id, p]))), setListError);
    listAll<Charge>('/v1/subscription-charges', { subscriptionId: id }).then(setCharges, setListError);
  }, [id]);
  if (!subscription) return <ErrorMessage error={error} />;
  const chainId = subscription.onChain?.chainId ?? '31337';
  const entries: TimelineEntry[] = [
    { at: subscription.createdAt, title: `Subscribed to ${plans.get(subscription.planId)?.name ?? subscription.planId}` },
    ...(subscription.trialEnd ? [{ at: subscription.trialEnd, title: 'Trial ends' }] : []),
    ...charges.map((c) => ({
      at: c.settledAt ?? c.createdAt,
      title: `Period ${c.periodIndex + 1}: ${formatAmount(c.amount, c.currency)} ${c.status}`,
      detail: c.transactionHash ? (
        <TxHash hash={c.transactionHash} chainId={chainId} />
      ) : (
        <FailureNote code={c.failureCode} reason={c.failureReason} />
      ),
    })),
    ...(subscription.cancelledAt
      ? [{ at: subscription.cancelledAt, title: 'Cancelled', detail: subscription.cancelReason ?? undefined }]
      : []),
    ...(subscription.cancelAtPeriodEnd && subscription.cancelAt && !subscription.cancelledAt
      ? [{ at: subscription.cancelAt, title: 'Cancels at period end', detail: subscription.cancellationDetails?.reason ?? undefined }]
      : []),
    ...eventEntries(events.events),
  ];
  return (
    <>
      <ErrorMessage error={listError} />
      <SubscriptionDetail subscription={subscription} plans={plans} onChanged={reload} standalone />
      <ObjectEventsError error={events.error} />
      <Timeline label="Timeline" entries={entries} />
    </>
  );
}
