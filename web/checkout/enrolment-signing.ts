// The subscription manager's Enrolment message the plan page asks the wallet
// to sign (after the EIP-2612 permit): the one place the hosted enrolment page
// builds it, from the server's type list (src/chain/typed-data.ts ENROLMENT_V2_TYPES:
// SubscriptionManagerV2's, with the charge window), so a new version of the terms
// changes this module and the offer's type only.
import { EIP712_DOMAIN_TYPE } from '../../src/chain/token-typed-data.js';
import { ENROLMENT_V2_TYPES } from '../../src/chain/typed-data.js';
import type { EnrolmentOffer } from './types.js';

export function enrolmentTypedData(
  offer: Pick<EnrolmentOffer, 'terms' | 'managerDomain'>,
  account: string,
  nonce: string,
  deadline: string,
) {
  const terms = offer.terms;
  return {
    types: { EIP712Domain: EIP712_DOMAIN_TYPE, Enrolment: ENROLMENT_V2_TYPES.Enrolment },
    primaryType: 'Enrolment' as const,
    domain: offer.managerDomain,
    message: {
      subscriber: account,
      token: terms.token,
      merchant: terms.merchant,
      operator: terms.operator,
      amount: terms.amount,
      period: terms.period,
      periods: String(terms.periods),
      trialEnd: terms.trialEnd,
      chargeWindow: terms.chargeWindow,
      nonce,
      deadline,
    },
  };
}

/** What POST /checkout/plans/{id}/enrol takes besides the permit: the signed enrolment's nonce and deadline. */
export function enrolmentBody(nonce: string, deadline: string, signature: string) {
  return { nonce, deadline, signature };
}
