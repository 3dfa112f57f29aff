// A one-off payer becomes a customer (docs/decisions.md "One-off payers as customers"). The key is the wallet
// that can be shown to have paid: the relayed payment's signer, else the one sender of the transfers that paid
// the session (several senders: nobody, so no customer). Never an email: anyone who opens a checkout link can
// type one, and anyone who reads a deposit address can send to it.
import type { Db } from '../db/client.js';
import { newId } from '../ids.js';
import { setSessionCustomer, type PaymentSessionRow } from '../payment-sessions/repo.js';
import { customerOfPayingWallet } from './repo.js';

type PaidSession = Pick<PaymentSessionRow, 'id' | 'merchantId' | 'livemode' | 'payer' | 'depositSender' | 'customerId' | 'customerEmail'>;

/** The wallet shown to have paid the session (lower-case), or null when none or several paid it. */
export function payingWalletOf(session: Pick<PaymentSessionRow, 'payer' | 'depositSender'>): string | null {
  return (session.payer ?? session.depositSender)?.toLowerCase() ?? null;
}

/** Attaches the completed session to its paying wallet's customer (in the completion's transaction); the customer's id. */
export async function attachPayingCustomer(tx: Db, session: PaidSession): Promise<string | null> {
  if (session.customerId) return session.customerId;
  const wallet = payingWalletOf(session);
  if (!wallet) return null;
  const customerId = await customerOfPayingWallet(tx, {
    id: newId('customer'),
    merchantId: session.merchantId,
    livemode: session.livemode,
    walletAddress: wallet,
    email: session.customerEmail,
  });
  await setSessionCustomer(tx, session.id, customerId);
  return customerId;
}
