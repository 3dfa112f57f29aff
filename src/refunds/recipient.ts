// Who a refund goes to, and why (docs/refunds.md, Who gets a refund). Only someone who can be shown
// to be the payer: the relayed payment's signer, the sender of the deposits that paid the session
// (never a later deposit's sender: anyone who reads a deposit address can send dust to it), a late
// deposit's own sender, an address the merchant names, or one the customer gives on the hosted
// refund-claim page. When the payer cannot be told (several senders paid), the customer is asked.
import { type Address, getAddress, isAddressEqual, zeroAddress } from 'viem';
import { depositFactoryOf, type ChainSettings } from '../chain/config.js';
import type { Db } from '../db/client.js';
import { depositAddressesOf, type PaymentSessionRow } from '../payment-sessions/repo.js';
import { refundOperatorOf } from './allowance.js';
import * as repo from './repo.js';

export type RecipientChoice =
  | { kind: 'known'; address: Address; source: repo.RecipientSource }
  /** Nobody can be shown to be the payer: the customer names the address on the claim page. */
  | { kind: 'claim' }
  /** Nothing was paid by anyone this refund could go back to. */
  | { kind: 'none' };

type Session = Pick<PaymentSessionRow, 'id' | 'payer'>;

/** The one sender of `senders`, `claim` for several, undefined for none. */
function onlySender(senders: string[]): RecipientChoice | undefined {
  if (senders.length === 0) return undefined;
  if (senders.length > 1) return { kind: 'claim' };
  return { kind: 'known', address: getAddress(senders[0]!), source: 'deposit_sender' };
}

/**
 * The recipient of a refund of `session` that names no destination: a late deposit's own sender when
 * the refund is for that deposit; else the relayed payment's signer; else the one sender of the
 * credited deposits (those that paid it); else, for a session only late deposits reached, their one
 * sender. Several distinct senders: the customer claims it.
 */
export async function recipientOf(tx: Db, session: Session, lateDeposit?: { fromAddress: string }): Promise<RecipientChoice> {
  if (lateDeposit) return { kind: 'known', address: getAddress(lateDeposit.fromAddress), source: 'deposit_sender' };
  if (session.payer) return { kind: 'known', address: getAddress(session.payer), source: 'payer_signer' };
  return (
    onlySender(await repo.depositSendersOf(tx, session.id, 'credited')) ??
    onlySender(await repo.depositSendersOf(tx, session.id, 'late')) ?? { kind: 'none' }
  );
}

/**
 * Why `address` cannot receive a refund of a session (a sentence), or undefined when it can: not the
 * zero address, not the payout wallet that sends it, not the session's deposit address (a refund there
 * would be swept straight back), not the token nor any contract or key of the platform.
 */
export function refusedRecipient(
  address: Address,
  settings: ChainSettings,
  session: Pick<PaymentSessionRow, 'payTo' | 'depositAddress' | 'acceptedChains' | 'chainId' | 'token'>,
): string | undefined {
  if (isAddressEqual(address, zeroAddress)) return 'The zero address cannot receive a refund.';
  // Every payout and deposit address of the session, on any chain (a chain may have a payout of its own).
  const addresses = depositAddressesOf(session);
  if (isAddressEqual(address, getAddress(session.payTo)) || addresses.some((entry) => isAddressEqual(address, getAddress(entry.payTo))))
    return "That is the merchant's payout address, which sends the refund.";
  if (addresses.some((entry) => isAddressEqual(address, getAddress(entry.address)))) {
    return "That is the payment's deposit address: a refund sent there would be forwarded back to the merchant.";
  }
  const platform = [
    settings.token,
    settings.subscriptionManager,
    settings.escrow,
    depositFactoryOf(settings),
    settings.yieldVault,
    refundOperatorOf(settings),
  ];
  if (platform.some((own) => own && isAddressEqual(address, own)))
    return 'That address is a contract or account of the payment platform, not a customer wallet.';
  return undefined;
}
