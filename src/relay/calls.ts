// The contract call a submission makes, stored as JSON (integers as strings)
// and rebuilt here into viem call parameters.
import { type Address, type Hex, encodeFunctionData } from 'viem';
import { subscriptionManagerAbi, subscriptionManagerV2Abi } from '../chain/generated/contracts.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { splitSig } from '../chain/typed-data.js';

export type PaymentCall = {
  kind: 'payment';
  token: Address;
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
  signature: Hex;
};

export type SubscriptionCall = {
  kind: 'subscription';
  manager: Address;
  subscriber: Address;
  /** `chargeWindow`: a SubscriptionManagerV2 enrolment; calls stored before v2 have none and go to v1 as they were. */
  terms: {
    token: Address;
    merchant: Address;
    operator: Address;
    amount: string;
    period: string;
    periods: number;
    trialEnd: string;
    chargeWindow?: string;
  };
  permit: { value: string; deadline: string; signature: Hex };
  enrolment: { nonce: Hex; deadline: string; signature: Hex };
};

export type RelayCall = PaymentCall | SubscriptionCall;

/** A 65-byte (r, s, v) signature: an EOA's, sent through the (v, r, s) overload every USDC version has. */
export const isEcdsaSignature = (signature: Hex): boolean => signature.length === 2 + 65 * 2;

/**
 * Target and calldata of the call. A payment picks the transferWithAuthorization overload by the
 * signature's length: 65 bytes go as (v, r, s); anything else (an ERC-1271 contract wallet's
 * signature) as `bytes signature` (FiatToken 2.2 and later).
 */
export function encodeRelayCall(call: RelayCall): { to: Address; data: Hex } {
  if (call.kind === 'payment') {
    const head = [call.from, call.to, BigInt(call.value), BigInt(call.validAfter), BigInt(call.validBefore), call.nonce] as const;
    if (!isEcdsaSignature(call.signature)) {
      return {
        to: call.token,
        data: encodeFunctionData({ abi: fiatTokenAbi, functionName: 'transferWithAuthorization', args: [...head, call.signature] }),
      };
    }
    const { v, r, s } = splitSig(call.signature);
    return {
      to: call.token,
      data: encodeFunctionData({ abi: fiatTokenAbi, functionName: 'transferWithAuthorization', args: [...head, v, r, s] }),
    };
  }
  const { v, r, s } = splitSig(call.permit.signature);
  const terms = {
    token: call.terms.token,
    merchant: call.terms.merchant,
    operator: call.terms.operator,
    amount: BigInt(call.terms.amount),
    period: BigInt(call.terms.period),
    periods: call.terms.periods,
    trialEnd: BigInt(call.terms.trialEnd),
  };
  const permit = { value: BigInt(call.permit.value), deadline: BigInt(call.permit.deadline), v, r, s };
  const enrolment = { nonce: call.enrolment.nonce, deadline: BigInt(call.enrolment.deadline), signature: call.enrolment.signature };
  const data =
    call.terms.chargeWindow === undefined
      ? encodeFunctionData({
          abi: subscriptionManagerAbi,
          functionName: 'subscribeWithPermitFor',
          args: [call.subscriber, terms, permit, enrolment],
        })
      : encodeFunctionData({
          abi: subscriptionManagerV2Abi,
          functionName: 'subscribeWithPermitFor',
          args: [call.subscriber, { ...terms, chargeWindow: BigInt(call.terms.chargeWindow) }, permit, enrolment],
        });
  return { to: call.manager, data };
}

/** Every ABI a relayed call may revert with (the token, both managers), for decoding a revert. */
export const relayErrorAbi = [
  ...fiatTokenAbi,
  ...subscriptionManagerAbi,
  ...subscriptionManagerV2Abi.filter((item) => item.type === 'error'),
];
