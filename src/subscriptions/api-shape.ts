// The API shape of a subscription, shared by the routes, the chain-event hooks and the activities.
import { renderDiscount } from '../discounts/api-shape.js';
import { renderPendingPlanChange } from '../subscription-plan-changes/api-shape.js';
import type * as repo from './repo.js';
import type { Subscription } from './schemas.js';

export function renderSubscription(row: repo.SubscriptionRow): Subscription {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    id: row.id,
    object: 'subscription',
    planId: row.planId,
    status: row.status,
    // The wallet this subscription charges (a wallet change moves it; the customer's other subscriptions keep theirs).
    customer: { id: row.customerId, walletAddress: row.subscriberAddress, email: row.customerEmail },
    amount: row.amount,
    planAmount: row.priceAmount ?? row.amount,
    currency: 'USDC',
    onChain: {
      chainId: row.chainId,
      contractAddress: row.contractAddress,
      subscriptionId: row.onChainId,
      tokenAddress: row.tokenAddress,
      periodSeconds: row.periodSeconds,
      createdTxHash: row.createdTxHash,
    },
    periods: row.periods,
    firstPeriodStart: row.firstPeriodStart.toISOString(),
    trialEnd: iso(row.trialEnd),
    currentPeriodIndex: row.currentPeriodIndex,
    nextChargeAt: iso(row.nextChargeAt),
    atRiskSince: iso(row.atRiskSince),
    cancelReason: row.cancelReason,
    cancelledBy: row.cancelledBy,
    cancelledAt: iso(row.cancelledAt),
    onChainCancelledAt: iso(row.onChainCancelledAt),
    lapsedAt: iso(row.lapsedAt),
    completedAt: iso(row.completedAt),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cancelAt: iso(row.cancelAt),
    cancellationDetails: row.cancellationRequestedBy
      ? { requestedBy: row.cancellationRequestedBy, reason: row.cancellationReason, feedback: row.cancellationFeedback }
      : null,
    discount: row.discount ? renderDiscount(row.discount, row) : null,
    pendingPlanChange: row.pendingPlanChange ? renderPendingPlanChange(row.pendingPlanChange) : null,
    metadata: row.metadata,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}
