// The contract call a submission makes, stored as JSON (integers as strings)
// and rebuilt here into viem call parameters.
import { type Address, type Hex, encodeFunctionData } from 'viem';
import { subscriptionManagerAbi } from '../chain/abi.js';
import { fiatTokenAbi } from '../chain/fiat-token-abi.js';
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
  terms: { token: Address; merchant: Address; operator: Address; amount: string; period: string; periods: number; trialEnd: string };
  permit: { value: string; deadline: string; signature: Hex };
  enrolment: { nonce: Hex; deadline: string; signature: Hex };
};

export type RelayCall = PaymentCall | SubscriptionCall;

/** Target and calldata of the call (the v, r, s overloads, which every USDC version has). */
export function encodeRelayCall(call: RelayCall): { to: Address; data: Hex } {
  if (call.kind === 'payment') {
    const { v, r, s } = splitSig(call.signature);
    return {
      to: call.token,
      data: encodeFunctionData({
        abi: fiatTokenAbi,
        functionName: 'transferWithAuthorization',
        args: [call.from, call.to, BigInt(call.value), BigInt(call.validAfter), BigInt(call.validBefore), call.nonce, v, r, s],
      }),
    };
  }
  const { v, r, s } = splitSig(call.permit.signature);
  return {
    to: call.manager,
    data: encodeFunctionData({
      abi: subscriptionManagerAbi,
      functionName: 'subscribeWithPermitFor',
      args: [
        call.subscriber,
        {
          token: call.terms.token,
          merchant: call.terms.merchant,
          operator: call.terms.operator,
          amount: BigInt(call.terms.amount),
          period: BigInt(call.terms.period),
          periods: call.terms.periods,
          trialEnd: BigInt(call.terms.trialEnd),
        },
        { value: BigInt(call.permit.value), deadline: BigInt(call.permit.deadline), v, r, s },
        { nonce: call.enrolment.nonce, deadline: BigInt(call.enrolment.deadline), signature: call.enrolment.signature },
      ],
    }),
  };
}

/** Both ABIs, for decoding a revert of either call. */
export const relayErrorAbi = [...fiatTokenAbi, ...subscriptionManagerAbi];
