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

/**
 * What the customer reads when the wallet refused a request (EIP-1193 and JSON-RPC codes), instead of a generic
 * failure; null for anything that is not a wallet's refusal.
 */
export function walletRefusalText(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 4001) return 'You declined the request in your wallet. Nothing was signed; you can try again.';
  if (code === 4100) return 'Your wallet did not allow this site to use the account: connect it to this site and try again.';
  if (code === 4200 || code === -32601) return 'Your wallet does not support this request (signing a message). Try another wallet.';
  if (code === 4900 || code === 4901) return 'Your wallet is not connected to the network. Reconnect it and try again.';
  if (code === 4902) return 'Your wallet does not know this network: add it in your wallet and try again.';
  if (code === -32002) return 'Your wallet already has a request waiting: open it to answer, then try again.';
  return null;
}

/** The newest move to another wallet, in the customer's words; null when none is worth showing. */
export function walletChangeLine(item: PortalSubscription): string | null {
  const w = item.walletChange;
  if (!w) return null;
  if (w.status === 'pending') return `Moving to ${w.walletAddress}: open the link with that wallet to approve.`;
  if (w.status === 'submitted') return `Moving to ${w.walletAddress}: approved, waiting for the network to confirm.`;
  if (w.status === 'applied' && w.firstChargeAt) return `Charged to ${w.walletAddress} from ${day(w.firstChargeAt)}.`;
  return null;
}
