// What the checkout, enrolment and renewal pages say, as pure functions of what
// they read (session, API error, clock): unit-tested without a browser
// (test/unit/hosted-pages.test.ts). The refusal sentences are the server's own
// (src/chain/refusal-sentences.ts).
import { expiryCountdown } from '../../src/time/duration-text.js';
import { payerRefusalMessages } from '../../src/chain/refusal-sentences.js';
import type { ApiErrorBody } from '../shared/errors.js';
import type { MessageKind } from '../shared/page.js';
import type { CheckoutSession, OfferDiscount } from './types.js';

export const MESSAGES = {
  noWallet: 'No wallet found. Install or open an Ethereum wallet (EIP-1193) in this browser and reload the page.',
  noWalletTransfer: 'No wallet in this browser. Send the transfer below from any wallet or exchange instead.',
  rejected: 'You rejected the signature request in your wallet. Nothing was paid; you can try again.',
  rejectedConnect: 'You did not connect your wallet. Nothing was paid; you can try again.',
  expired: 'This checkout session has expired. Return to the merchant to start a new payment.',
  signatureWindow:
    "The network's time moved on while you signed, so the signature's time window no longer fits it. Nothing was paid; try again.",
  cancelled: 'This checkout session was cancelled by the merchant.',
  completed: 'This checkout session is already paid.',
  processing: 'A payment for this session is being confirmed…',
  failedOnChain: 'The payment could not be completed on-chain. Nothing was taken; you can try again.',
  tokenUnsupported: 'This token cannot be paid by signature (EIP-3009) on this network.',
} as const;

const REFUSALS: Readonly<Record<string, string>> = payerRefusalMessages();

/** The payer's sentence for a refusal code; null for anything else (a contract error name, no code). */
export function refusalText(code: unknown): string | null {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(REFUSALS, code) ? REFUSALS[code]! : null;
}

/** An API error's named refusal (details.refusalCode, docs/decisions.md "Token refusals are named"), if any. */
export function apiRefusalText(api: ApiErrorBody | undefined): string | null {
  return refusalText(api?.details?.refusalCode);
}

export function isExpired(session: Pick<CheckoutSession, 'status' | 'expiresAt'>, now = Date.now()): boolean {
  return session.status === 'expired' || (session.status === 'open' && Date.parse(session.expiresAt) <= now);
}

/** The status line of a session that cannot be paid now; null while it can. */
export function statusMessage(session: Pick<CheckoutSession, 'status' | 'expiresAt'>, now = Date.now()): [MessageKind, string] | null {
  if (isExpired(session, now)) return ['error', MESSAGES.expired];
  if (session.status === 'cancelled') return ['error', MESSAGES.cancelled];
  if (session.status === 'completed') return ['success', MESSAGES.completed];
  if (session.status === 'processing') return ['info', MESSAGES.processing];
  return null;
}

/** Why the pay route refused a signed authorization, in the payer's words. */
export function relayMessage(api: ApiErrorBody, fallback: string): string {
  if (api.code === 'session_invalid_state') return 'This checkout session can no longer be paid (already paid, expired or cancelled).';
  const named = apiRefusalText(api);
  if (named) return named;
  if (api.param === 'authorization.value' && /balance/i.test(api.message || '')) return REFUSALS.insufficient_funds!;
  if (api.param === 'authorization.validBefore' || api.param === 'authorization.validAfter')
    // The page signs on the payment chain's own time (typed-data.ts), so this is the chain's time moving
    // on while the wallet asked (or a test clock moving a test chain), never the payer's clock.
    return MESSAGES.signatureWindow;
  if (api.param === 'signature') return 'The wallet signature could not be verified. Try again, or use another wallet.';
  return 'The payment could not be submitted: ' + (api.message || fallback);
}

/** Only http(s) URLs are followed (a merchant's successUrl or cancelUrl). */
export function safeRedirectUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** What the wallet pays: the amount, less what transfers to the deposit address already paid. */
export function amountDue(session: Pick<CheckoutSession, 'amount' | 'deposit'>): string {
  return session.deposit ? session.deposit.amountRemaining : session.amount;
}

/** `Expires in 379 days 1 hour`, `Expires in 14 min 3 s`, then `Expired` (src/time/duration-text.ts, the one formatter). */
export const countdown = expiryCountdown;

const INTERVAL_WORDS: Readonly<Record<string, string>> = {
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  quarterly: 'quarter',
  yearly: 'year',
};

/** ` per month`, ` every 3 months`: appended to a plan's amount. */
export function planPeriod(interval: string, intervalCount: number): string {
  const word = INTERVAL_WORDS[interval];
  return intervalCount > 1 ? ' every ' + intervalCount + ' ' + word + 's' : ' per ' + word;
}

/** ` on Base Sepolia (test mode)`-style network line parts. */
export function networkLabel(session: Pick<CheckoutSession, 'network' | 'chainId' | 'livemode'>): string {
  return (session.network || 'chain ' + session.chainId) + (session.livemode ? '' : ' (test mode)');
}

/**
 * The line under the amount once a code applies: `for the first 3 months, then 10.00 USDC per month
 * (SPRING20: Spring 20)`; `with SPRING20, every month` for a discount without end. `price` formats base units.
 */
export function discountLine(
  discount: OfferDiscount,
  plan: { interval: string; intervalCount: number },
  fullAmount: string,
  price: (units: string) => string,
): string {
  const label = discount.promotionCode + (discount.couponName ? ': ' + discount.couponName : '');
  if (discount.periods === null) return 'With ' + label + ', every period.';
  const word = INTERVAL_WORDS[plan.interval];
  const span =
    plan.intervalCount === 1 && word
      ? discount.periods === 1
        ? 'the first ' + word
        : 'the first ' + discount.periods + ' ' + word + 's'
      : discount.periods === 1
        ? 'the first period'
        : 'the first ' + discount.periods + ' periods';
  return 'For ' + span + ', then ' + price(fullAmount) + planPeriod(plan.interval, plan.intervalCount) + ' (' + label + ').';
}
