// Renewing a subscription's allowance. The hosted enrolment permits
// PERMIT_PERIODS periods of the plan amount (src/checkout/service.ts); an
// open-ended plan outlives that. After each charge the workflow reads the
// on-chain allowance (subscriber -> SubscriptionManager); once it covers
// RENEWAL_NOTICE_PERIODS periods or fewer (and the term needs more), one notice
// per renewal window is written with a capability token and the customer is
// emailed a link to the hosted renewal page, where their wallet signs a new
// EIP-2612 permit that the operator submits. The window's business key is the
// first period the allowance cannot pay, so a retried activity or the next
// period's check queues nothing new, and a top-up opens a new window.
import { createHash, randomBytes } from 'node:crypto';

/** Periods of the plan amount one permit grants: at the hosted enrolment and at each renewal. */
export const PERMIT_PERIODS = 12n;
/** A notice goes out when the allowance covers this many periods or fewer. */
export const RENEWAL_NOTICE_PERIODS = 3;
/** The email kind of the notice (outbound_emails.kind). */
export const RENEWAL_EMAIL_KIND = 'subscription_renewal';

export const newRenewalToken = (): string => randomBytes(32).toString('base64url');
export const hashRenewalToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function renewalUrl(publicBaseUrl: string, subscriptionId: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/checkout/subscriptions/${subscriptionId}/renew?token=${encodeURIComponent(token)}`;
}
