// A subscriber's signed enrolment, as the body of POST /v1/relay/subscriptions or POST /checkout/plans/{id}/enrol:
// the EIP-2612 permit for the SubscriptionManager and the v2 Enrolment of an enrolment offer's terms. Each is signed
// for the chain given (its domain names the chain), so a test can sign both for one chain, or the permit for one and
// the Enrolment for another.
import type { Address, PrivateKeyAccount, PublicClient } from 'viem';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { PERMIT_TYPES, randomNonce, readDomain, signEnrolmentV2 } from '../../src/chain/typed-data.js';

/** What the signatures need of GET /checkout/plans/{id}/enrolment's answer. */
export type EnrolmentOffer = {
  subscriptionManager: Address;
  permitValue: string;
  terms: {
    token: Address;
    merchant: Address;
    operator: Address;
    amount: string;
    period: string;
    periods: number;
    trialEnd: string;
    chargeWindow: string;
  };
};

/** A chain to sign for: a client of its node (domains and the permit nonce are read there) and its USDC. */
export type SigningChain = { client: PublicClient; token: Address };

/**
 * The permit (over `permit`'s USDC domain, at the signer's permit nonce there) and the Enrolment of `offer`'s terms
 * (over the manager's domain on `enrolment`), both valid until `deadline`, with a fresh enrolment nonce.
 */
export async function signEnrolmentBody(
  offer: EnrolmentOffer,
  signer: PrivateKeyAccount,
  signedFor: { permit: SigningChain; enrolment: SigningChain },
  deadline: bigint,
) {
  const { permit, enrolment: on } = signedFor;
  const nonce = await permit.client.readContract({
    address: permit.token,
    abi: fiatTokenAbi,
    functionName: 'nonces',
    args: [signer.address],
  });
  const permitSignature = await signer.signTypedData({
    domain: await readDomain(permit.client, permit.token),
    types: PERMIT_TYPES,
    primaryType: 'Permit',
    message: { owner: signer.address, spender: offer.subscriptionManager, value: BigInt(offer.permitValue), nonce, deadline },
  });
  const { terms } = offer;
  const enrolment = await signEnrolmentV2(
    on.client,
    signer,
    offer.subscriptionManager,
    {
      token: terms.token,
      merchant: terms.merchant,
      operator: terms.operator,
      amount: BigInt(terms.amount),
      period: BigInt(terms.period),
      periods: terms.periods,
      trialEnd: BigInt(terms.trialEnd),
      chargeWindow: BigInt(terms.chargeWindow),
    },
    { nonce: randomNonce(), deadline },
  );
  return {
    subscriber: signer.address,
    terms,
    permit: { value: offer.permitValue, deadline: deadline.toString(), signature: permitSignature },
    enrolment: { nonce: enrolment.nonce, deadline: deadline.toString(), signature: enrolment.signature },
  };
}
