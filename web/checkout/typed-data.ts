// The EIP-712 messages the checkout and renewal pages ask the wallet to sign
// (eth_signTypedData_v4): an EIP-3009 TransferWithAuthorization and an EIP-2612
// Permit. The message types are the server's (src/chain/token-typed-data.ts).
import { EIP3009_TYPES, EIP712_DOMAIN_TYPE, PERMIT_TYPES } from '../../src/chain/token-typed-data.js';
import { amountDue } from './messages.js';
import type { CheckoutSession, TypedDataDomain } from './types.js';

export type TransferAuthorization = {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
};

/**
 * The session's payment: valid from a minute before the chain's time until the session expires, at
 * most an hour. The window is placed on the time of the chain the payment goes to (`chainNowMs`, the
 * latest block the wallet's network reports), which the relay and the token check it against: a test
 * chain a test clock moved ahead of wall time, or a device clock that is off, cannot put it outside.
 * Its length is what is left of the session on the device's clock (`nowMs`).
 */
export function transferTypedData(
  session: Pick<CheckoutSession, 'payTo' | 'amount' | 'deposit' | 'expiresAt'>,
  domain: TypedDataDomain,
  account: string,
  nonce: string,
  nowMs = Date.now(),
  chainNowMs = nowMs,
) {
  const now = Math.floor(nowMs / 1000);
  const chainNow = Math.floor(chainNowMs / 1000);
  const left = Math.floor(Date.parse(session.expiresAt) / 1000) - now;
  const message: TransferAuthorization = {
    from: account,
    to: session.payTo,
    value: amountDue(session),
    validAfter: String(chainNow - 60),
    validBefore: String(chainNow + Math.max(60, Math.min(left, 3600))),
    nonce,
  };
  return {
    types: { EIP712Domain: EIP712_DOMAIN_TYPE, TransferWithAuthorization: EIP3009_TYPES.TransferWithAuthorization },
    primaryType: 'TransferWithAuthorization' as const,
    domain,
    message,
  };
}

export type PermitMessage = { owner: string; spender: string; value: string; nonce: string; deadline: string };

/** EIP-2612 Permit typed data (enrolment and renewal sign the same shape). */
export function permitTypedData(domain: TypedDataDomain, message: PermitMessage) {
  return {
    types: { EIP712Domain: EIP712_DOMAIN_TYPE, Permit: PERMIT_TYPES.Permit },
    primaryType: 'Permit' as const,
    domain,
    message,
  };
}
