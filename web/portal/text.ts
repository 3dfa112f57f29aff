// The portal's words for what the API answers: pure, so the unit tests read them without a browser.
import { formatTokenAmount } from '../shared/money.js';
import type { PortalPlan, PortalSubscription } from './types.js';

/** USDC has 6 decimals on every chain we serve. */
export const usdc = (amount: string) => formatTokenAmount(amount, 6, 'USDC');

export const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

const NOUNS: Readonly<Record<string, string>> = { daily: 'day', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year' };

export function per(plan: Pick<PortalPlan, 'interval' | 'intervalCount'>): string {
  const noun = NOUNS[plan.interval] ?? plan.interval;
  return plan.intervalCount === 1 ? `/ ${noun}` : `every ${plan.intervalCount} ${noun}s`;
}

export const REASON_LABELS: Readonly<Record<string, string>> = {
  too_expensive: 'It’s too expensive',
  unused: 'I don’t use it enough',
  missing_features: 'Some features are missing',
  switched_service: 'I’m switching to another service',
  too_complex: 'It’s too complicated',
  low_quality: 'Quality was less than expected',
  customer_service: 'Customer service was less than expected',
  other: 'Other reason',
};

const STATUS_LABELS: Readonly<Record<string, string>> = {
  trialing: 'Trial',
  active: 'Active',
  at_risk: 'Payment due',
  paused: 'Paused',
  cancelled: 'Cancelled',
  lapsed: 'Lapsed',
  completed: 'Completed',
};

export const statusLabel = (status: string) => STATUS_LABELS[status] ?? status;

const PAYMENT_LABELS: Readonly<Record<string, string>> = { succeeded: 'Paid', pending: 'Pending', failed: 'Failed' };

export const paymentLabel = (status: string) => PAYMENT_LABELS[status] ?? status;

/** The line under a subscription's price: its next charge, its scheduled end, or why nothing comes. */
export function nextChargeLine(item: PortalSubscription): string {
  const s = item.subscription;
  if (s.status === 'cancelled' && s.cancelledAt) return `Cancelled on ${day(s.cancelledAt)}`;
  if (s.cancelAtPeriodEnd && s.cancelAt) return `Cancels on ${day(s.cancelAt)}; nothing more is charged.`;
  if (item.nextCharge) return `Next charge ${usdc(item.nextCharge.amount)} on ${day(item.nextCharge.at)}`;
  return 'No further charges.';
}

/** The pending plan change, in the customer's words; null when none waits. */
export function planChangeLine(item: PortalSubscription, plans: readonly PortalPlan[]): string | null {
  const change = item.subscription.pendingPlanChange;
  if (!change) return null;
  const name = plans.find((p) => p.id === change.planId)?.name ?? 'the new plan';
  if (change.status === 'scheduled' && change.effectiveAt)
    return `Switching to ${name} (${usdc(change.amount)}) on ${day(change.effectiveAt)}.`;
  if (change.status === 'requires_customer_action') {
    return `Switching to ${name} (${usdc(change.amount)}) needs your approval: it is more than you authorised per period.`;
  }
  return null;
}

/** The open discount: what it takes off and for how long. */
export function discountLine(item: PortalSubscription): string | null {
  const d = item.subscription.discount;
  if (!d) return null;
  const off = d.coupon.percentOff !== null ? `${d.coupon.percentOff}% off` : `${usdc(d.coupon.amountOff ?? '0')} off`;
  const name = d.coupon.name ? `${d.coupon.name}: ` : '';
  if (d.periodsRemaining === null) return `${name}${off} every period`;
  return `${name}${off}, ${d.periodsRemaining} more ${d.periodsRemaining === 1 ? 'period' : 'periods'}`;
}
