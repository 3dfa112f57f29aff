/**
 * EIP-712 type definitions and signing helpers of the token's (EIP-3009, EIP-2612) and the
 * subscription manager's (Enrolment, Cancellation) messages, plus revert decoding. Product code
 * (relay pre-checks) and tests share them. Domains are always read from the contract, never
 * hard-coded (USDC's `name` differs between chains): src/chain/eip712-domain.ts reads them.
 */
import { readDomain } from './eip712-domain.js';
import { EIP3009_TYPES, PERMIT_TYPES } from './token-typed-data.js';
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  type PublicClient,
  parseSignature,
  type TypedDataDomain,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { fiatTokenAbi } from './generated/fiat-token.js';

export interface DecodedRevert {
  errorName: string;
  args: readonly unknown[];
}

/** Decodes a viem error into the contract's custom error, or undefined if it is not a decodable revert. */
export function decodeRevert(err: unknown): DecodedRevert | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const revert = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(revert instanceof ContractFunctionRevertedError)) return undefined;
  if (revert.data) return { errorName: revert.data.errorName, args: revert.data.args ?? [] };
  if (revert.reason) return { errorName: 'Error', args: [revert.reason] };
  return undefined;
}

/** `Name(arg1, arg2)` for failure reasons a developer can act on. */
export function describeRevert(revert: DecodedRevert): string {
  return `${revert.errorName}(${revert.args.map((a) => String(a)).join(', ')})`;
}

// The one domain reader (ERC-5267, else name()/version(), else a known value); re-exported for the signers' callers.
export { type ContractDomain, readDomain } from './eip712-domain.js';

export function splitSig(signature: Hex): { v: number; r: Hex; s: Hex } {
  const { v, r, s, yParity } = parseSignature(signature);
  return { v: v !== undefined ? Number(v) : yParity + 27, r, s };
}

export const randomNonce = (): Hex =>
  `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

export { EIP3009_TYPES, PERMIT_TYPES };

export const ENROLMENT_TYPES = {
  Enrolment: [
    { name: 'subscriber', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'merchant', type: 'address' },
    { name: 'operator', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'period', type: 'uint64' },
    { name: 'periods', type: 'uint32' },
    { name: 'trialEnd', type: 'uint64' },
    { name: 'nonce', type: 'bytes32' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/** SubscriptionManagerV2's Enrolment: v1's fields plus the charge window the subscriber agrees to. */
export const ENROLMENT_V2_TYPES = {
  Enrolment: [
    { name: 'subscriber', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'merchant', type: 'address' },
    { name: 'operator', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'period', type: 'uint64' },
    { name: 'periods', type: 'uint32' },
    { name: 'trialEnd', type: 'uint64' },
    { name: 'chargeWindow', type: 'uint64' },
    { name: 'nonce', type: 'bytes32' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

export const CANCELLATION_TYPES = {
  Cancellation: [
    { name: 'subscriptionId', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

export interface Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

export async function signAuthorization(
  signer: PrivateKeyAccount,
  domain: TypedDataDomain,
  kind: 'TransferWithAuthorization' | 'ReceiveWithAuthorization',
  message: Authorization,
): Promise<Hex> {
  return signer.signTypedData({ domain, types: EIP3009_TYPES, primaryType: kind, message });
}

export async function signCancelAuthorization(
  signer: PrivateKeyAccount,
  domain: TypedDataDomain,
  message: { authorizer: Address; nonce: Hex },
): Promise<Hex> {
  return signer.signTypedData({ domain, types: EIP3009_TYPES, primaryType: 'CancelAuthorization', message });
}

export async function signPermit(
  client: PublicClient,
  signer: PrivateKeyAccount,
  token: Address,
  params: { spender: Address; value: bigint; deadline: bigint; nonce?: bigint },
): Promise<{ value: bigint; deadline: bigint; v: number; r: Hex; s: Hex }> {
  const domain = await readDomain(client, token);
  const nonce =
    params.nonce ?? (await client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'nonces', args: [signer.address] }));
  const signature = await signer.signTypedData({
    domain,
    types: PERMIT_TYPES,
    primaryType: 'Permit',
    message: { owner: signer.address, spender: params.spender, value: params.value, nonce, deadline: params.deadline },
  });
  return { value: params.value, deadline: params.deadline, ...splitSig(signature) };
}

export interface Terms {
  token: Address;
  merchant: Address;
  operator: Address;
  amount: bigint;
  period: bigint;
  periods: number;
  trialEnd: bigint;
}

export async function signEnrolment(
  client: PublicClient,
  signer: PrivateKeyAccount,
  manager: Address,
  terms: Terms,
  auth: { nonce: Hex; deadline: bigint },
): Promise<{ nonce: Hex; deadline: bigint; signature: Hex }> {
  const domain = await readDomain(client, manager);
  const signature = await signer.signTypedData({
    domain,
    types: ENROLMENT_TYPES,
    primaryType: 'Enrolment',
    message: { subscriber: signer.address, ...terms, ...auth },
  });
  return { ...auth, signature };
}

/** Terms of SubscriptionManagerV2: seconds after a period's start during which it may be charged. */
export interface TermsV2 extends Terms {
  chargeWindow: bigint;
}

export async function signEnrolmentV2(
  client: PublicClient,
  signer: PrivateKeyAccount,
  manager: Address,
  terms: TermsV2,
  auth: { nonce: Hex; deadline: bigint },
): Promise<{ nonce: Hex; deadline: bigint; signature: Hex }> {
  const domain = await readDomain(client, manager);
  const signature = await signer.signTypedData({
    domain,
    types: ENROLMENT_V2_TYPES,
    primaryType: 'Enrolment',
    message: { subscriber: signer.address, ...terms, ...auth },
  });
  return { ...auth, signature };
}

export async function signCancellation(
  client: PublicClient,
  signer: PrivateKeyAccount,
  manager: Address,
  message: { subscriptionId: bigint; deadline: bigint },
): Promise<Hex> {
  const domain = await readDomain(client, manager);
  return signer.signTypedData({ domain, types: CANCELLATION_TYPES, primaryType: 'Cancellation', message });
}
