// Whom a receipt goes to: the one lookup of a customer's email (issue 40, item 5). Only an address the
// merchant or the customer gave for this very merchant and mode is used (the invoice's customer email, the
// customer record of the subscription or of the paying wallet), never one found elsewhere: a receipt never
// goes to a stranger. The email a payer typed on the hosted payment page comes first for that payment
// (Stripe's receipt_email): only the holder of the checkout link can type it.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import { findCustomerEmail } from './repo.js';

export type ReceiptRecipientSource = {
  /** The email the payer typed at checkout for this payment (payment_sessions.customer_email). */
  checkoutEmail?: string | null;
  /** The email typed on the invoice the money paid. */
  invoiceEmail?: string | null;
  /** The customer the object belongs to (a subscription's). */
  customerId?: string | null;
  /** The wallet that paid, matched to the merchant's customer of that wallet. */
  payer?: string | null;
};

export async function receiptRecipient(db: Db, scope: MerchantScope, source: ReceiptRecipientSource): Promise<string | null> {
  if (source.invoiceEmail) return source.invoiceEmail;
  if (source.checkoutEmail) return source.checkoutEmail;
  if (source.customerId) return findCustomerEmail(db, scope, { id: source.customerId });
  if (source.payer) return findCustomerEmail(db, scope, { walletAddress: source.payer });
  return null;
}
