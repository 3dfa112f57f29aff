// Who an x402 payment pays (`payTo`): the merchant's payout address, or the deposit address of one
// of the merchant's payment sessions in the key's mode (docs/x402.md, "Paying a deposit address").
// A payment to a deposit address is a transfer into it: the indexer records it as that session's
// deposit, the session completes through the deposit rules and the funds are swept to the payout
// address like any deposit. The x402 settlement creates no session of its own then, so the sale is
// counted once: the deposit session carries the x402 fields.
import { type Address, getAddress, isAddressEqual } from 'viem';
import type { ChainSettings } from '../chain/config.js';
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import { findSessionByDepositAddress } from '../payment-sessions/deposits-repo.js';
import { type PaymentSessionRow, acceptedChainsOf, depositAddressOn, findPaymentSessionById } from '../payment-sessions/repo.js';
import { acceptsChain } from '../payment-sessions/accepted-chains.js';
import { X402_REASONS, type X402Reason } from './reasons.js';

export type Recipient = { kind: 'payout' } | { kind: 'deposit'; session: PaymentSessionRow };

/** The recipient `to` is for this merchant and mode, or why it is not one of theirs. */
export async function recipientOf(
  db: Db,
  scope: MerchantScope,
  settings: ChainSettings,
  to: Address,
  payout: string | null | undefined,
): Promise<{ recipient: Recipient } | { refusal: string }> {
  if (payout && isAddressEqual(getAddress(payout), to)) return { recipient: { kind: 'payout' } };
  const found = await findSessionByDepositAddress(db, scope.livemode, to);
  // The session must accept the chain the payment settles on, and `to` must be its deposit address on that chain
  // (the same on every chain paying the same payout; a chain with its own payout has its own address).
  const onChain = found && depositAddressOn(found, settings.chainId);
  const ours =
    found &&
    found.merchantId === scope.merchantId &&
    acceptsChain(acceptedChainsOf(found), settings.chainId) &&
    onChain !== null &&
    isAddressEqual(getAddress(onChain!), to);
  const session = ours ? await findPaymentSessionById(db, found.id) : undefined;
  if (!session) {
    // Another merchant's deposit address, one of another mode, or the session's address for another chain's payout
    // reads the same: not yours here.
    return {
      refusal: `payTo must be the merchant's payout address or the deposit address of one of its payment sessions in ${scope.livemode ? 'live' : 'test'} mode.`,
    };
  }
  return { recipient: { kind: 'deposit', session } };
}

/**
 * Why a deposit session cannot take this x402 payment now, if it cannot. One x402 payment pays a
 * deposit session, in full: the session must be open, unpaid (nothing received yet, no x402 payment
 * on it) and for exactly the amount, so the one payment completes it and is counted once.
 */
export function depositSessionRefusal(
  session: PaymentSessionRow,
  token: Address,
  value: bigint,
  now: Date = new Date(),
): { reason: X402Reason; message: string } | undefined {
  const mismatch = (message: string) => ({ reason: X402_REASONS.recipientMismatch, message });
  if (session.status !== 'open' || session.expiresAt.getTime() <= now.getTime()) {
    const state = session.status === 'open' ? 'expired' : session.status;
    return mismatch(`payTo is the deposit address of payment session ${session.id}, which is ${state}: it takes no payment.`);
  }
  if (session.x402 || BigInt(session.amountReceived) > 0n) {
    return mismatch(
      `payTo is the deposit address of payment session ${session.id}, which is already being paid; an x402 payment pays a deposit session in full, once.`,
    );
  }
  if (!isAddressEqual(getAddress(session.token), token)) return mismatch(`Payment session ${session.id} is paid in ${session.token}.`);
  if (BigInt(session.amount) !== value) {
    return {
      reason: X402_REASONS.valueMismatch,
      message: `payTo is the deposit address of payment session ${session.id}, for ${session.amount}; an x402 payment to it must pay exactly that.`,
    };
  }
  return undefined;
}
