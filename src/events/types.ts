// Event kinds of the service: the spec's list, plus the plan, storefront and
// product events this service adds (the spec leaves events of other kinds open;
// docs/decisions.md, Storefront).
export const EVENT_TYPES = [
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.overdue',
  /** The merchant changed an invoice's metadata (POST /v1/invoices/{id}); data.previousAttributes.metadata. */
  'invoice.updated',
  'subscription.created',
  'subscription.charged',
  'subscription.charge_failed',
  'subscription.cancelled',
  'subscription.lapsed',
  /** A plan change (issue 40: asked for, applied, cancelled; data.planChange) or a cancel at period end set or undone; data.previousAttributes what it changed. docs/events.md. */
  'subscription.updated',
  /** Three days before a trial ends (at once for a shorter trial), once per subscription. docs/events.md. */
  'subscription.trial_will_end',
  /** A metered period's total was above the authorised cap: the cap was charged, the rest is an open invoice (issue 41). docs/events.md. */
  'subscription.usage_over_cap',
  /** A cancelled metered subscription's last usage was closed and invoiced (issue 41). docs/events.md. */
  'subscription.final_usage_invoiced',
  /** A metered subscription's unbilled usage reached its plan's usageThreshold mid-period and was invoiced (issue 41). docs/events.md. */
  'subscription.usage_threshold_reached',
  'agent.action_executed',
  'agent.job_proposed',
  'agent.job_completed',
  'agent.job_disputed',
  /** An approved job could not be funded (the token refused the escrow call, or it reverted); docs/events.md. */
  'agent.job_failed',
  'payment.completed',
  /** A relayed payment failed (refused by the token or reverted); docs/events.md. */
  'payment.failed',
  'payment.partially_paid',
  'payment.overpaid',
  'payment.late_deposit',
  'payment.deposit_reversed',
  /** The token refused to move a deposit to its payout address (blacklisted, paused, zero); re-checked and swept once the cause is gone. docs/events.md. */
  'payment.deposit_sweep_blocked',
  /** A refund was created (any method); data.object is the refund. docs/refunds.md. */
  'refund.created',
  /** A refund's transfer has the mode's confirmations. */
  'refund.succeeded',
  /** A refund's transfer was refused by the token or reverted (failureCode names why); its amount is refundable again. docs/events.md. */
  'refund.failed',
  /** The merchant changed a refund's metadata (POST /v1/refunds/{id}); data.previousAttributes.metadata. */
  'refund.updated',
  'subscription_plan.created',
  'subscription_plan.updated',
  'subscription_plan.archived',
  'storefront.updated',
  'product.created',
  'product.updated',
  'product.archived',
  /** Coupons and promotion codes (issue 40); data.object is the coupon or code. docs/events.md. */
  'coupon.created',
  'coupon.updated',
  'coupon.deleted',
  'promotion_code.created',
  'promotion_code.updated',
  /** A coupon was applied to a subscription; data.object is the discount, data.subscription the subscription. */
  'customer.discount.created',
  /** A subscription's discount ended (removed, replaced or used up); same data. */
  'customer.discount.deleted',
  /** A customer portal session was created (issue 40, item 4); data.object is the session, without its url (the token is never stored). */
  'billing_portal.session.created',
  /** A customer's metadata changed (POST /v1/customers/{id}) or their wallet moved with a wallet change (issue 40); data.previousAttributes what it changed. docs/events.md. */
  'customer.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export type EventRecord = {
  id: string;
  merchantId: string;
  livemode: boolean;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
};
