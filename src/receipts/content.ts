// What a receipt says, read from the receipted object when its money event is processed: one loader per
// kind, each returning the receipt's snapshot and whom it goes to (src/receipts/recipient.ts), or nothing
// when that object gets no receipt of this kind (a payment backing an invoice: the invoice's covers it).
import type { Db } from '../db/client.js';
import { findInvoiceById, findInvoiceBySession } from '../invoices/repo.js';
import { findMerchantDisplay, findPaymentSessionById } from '../payment-sessions/repo.js';
import { findRefundById } from '../refunds/repo.js';
import { receiptLines } from '../subscription-charges/receipt.js';
import { findChargeById } from '../subscription-charges/repo.js';
import { findSubscriptionById } from '../subscriptions/repo.js';
import { receiptRecipient } from './recipient.js';
import type { ReceiptKind } from './schemas.js';

export type ReceiptLine = { description: string; amount: string };

/** A receipt as it was sent: amounts in base units, `date` ISO 8601. Stored with the receipt (receipts.data). */
export type ReceiptData = {
  kind: ReceiptKind;
  objectId: string;
  merchantName: string;
  /** What was paid (or refunded), for people: "Subscription: Pro", "Invoice INV-0001". */
  title: string;
  amount: string;
  currency: string;
  date: string;
  lines: ReceiptLine[];
  transactionHash: string | null;
  chainId: number | null;
  /** The payment session the money went through, whose refunds the page shows; null for a subscription charge. */
  paymentSessionId: string | null;
  /** A public PDF of the same receipt: the charge's (under the receipt link) or the hosted invoice's. */
  pdf: 'subscription_charge' | 'invoice' | null;
};

export type ReceiptDraft = { to: string | null; data: ReceiptData };

/** The event of each kind's money moment. */
export const RECEIPT_EVENTS: Record<string, ReceiptKind> = {
  'payment.completed': 'payment',
  'subscription.charged': 'subscription_charge',
  'refund.succeeded': 'refund',
  'invoice.paid': 'invoice',
};

type Scope = { merchantId: string; livemode: boolean };

async function merchantName(db: Db, scope: Scope): Promise<string> {
  return (await findMerchantDisplay(db, scope))?.name ?? 'Your supplier';
}

const iso = (date: Date | null) => (date ?? new Date()).toISOString();

async function paymentDraft(db: Db, scope: Scope, id: string): Promise<ReceiptDraft | undefined> {
  const session = await findPaymentSessionById(db, id);
  if (!session || session.status !== 'completed') return undefined;
  if (session.invoiceId || (await findInvoiceBySession(db, id))) return undefined;
  const title = session.productName ?? 'Payment';
  return {
    to: await receiptRecipient(db, scope, { checkoutEmail: session.customerEmail, payer: session.payer }),
    data: {
      kind: 'payment',
      objectId: id,
      merchantName: await merchantName(db, scope),
      title,
      amount: session.amount,
      currency: session.currency,
      date: iso(session.completedAt),
      lines: [{ description: title, amount: session.amount }],
      transactionHash: session.transactionHash,
      chainId: Number(session.transactionChainId ?? session.chainId),
      paymentSessionId: id,
      pdf: null,
    },
  };
}

async function chargeDraft(db: Db, scope: Scope, id: string): Promise<ReceiptDraft | undefined> {
  const charge = await findChargeById(db, id);
  if (!charge || charge.status !== 'succeeded') return undefined;
  const subscription = await findSubscriptionById(db, charge.subscriptionId);
  return {
    to: await receiptRecipient(db, scope, { customerId: subscription?.customerId ?? null }),
    data: {
      kind: 'subscription_charge',
      objectId: id,
      merchantName: await merchantName(db, scope),
      title: `Subscription: ${charge.planName}`,
      amount: charge.amount,
      currency: 'USDC',
      date: iso(charge.settledAt ?? charge.attemptedAt),
      lines: receiptLines(charge, 'USDC').map(({ description, amount }) => ({ description, amount })),
      transactionHash: charge.txHash,
      chainId: charge.chainId,
      paymentSessionId: null,
      pdf: 'subscription_charge',
    },
  };
}

async function refundDraft(db: Db, scope: Scope, id: string): Promise<ReceiptDraft | undefined> {
  const refund = await findRefundById(db, id);
  if (!refund || refund.status !== 'succeeded') return undefined;
  const invoice = refund.invoiceId ? await findInvoiceById(db, refund.invoiceId) : undefined;
  const session = invoice ? undefined : await findPaymentSessionById(db, refund.paymentSessionId);
  const title = invoice ? `Refund of invoice ${invoice.number}` : `Refund of ${session?.productName ?? 'a payment'}`;
  return {
    to: await receiptRecipient(db, scope, {
      invoiceEmail: invoice?.customerEmail ?? null,
      checkoutEmail: session?.customerEmail ?? null,
      payer: session?.payer ?? null,
    }),
    data: {
      kind: 'refund',
      objectId: id,
      merchantName: await merchantName(db, scope),
      title,
      amount: refund.amount,
      currency: refund.currency,
      date: iso(refund.succeededAt),
      lines: [{ description: refund.reason ? `${title} (${refund.reason})` : title, amount: refund.amount }],
      transactionHash: refund.transactionHash,
      chainId: Number(refund.chainId),
      paymentSessionId: refund.paymentSessionId,
      pdf: null,
    },
  };
}

async function invoiceDraft(db: Db, scope: Scope, id: string): Promise<ReceiptDraft | undefined> {
  const invoice = await findInvoiceById(db, id);
  if (!invoice || invoice.status !== 'paid') return undefined;
  const session = await findPaymentSessionById(db, invoice.sessionId);
  return {
    to: await receiptRecipient(db, scope, { invoiceEmail: invoice.customerEmail }),
    data: {
      kind: 'invoice',
      objectId: id,
      merchantName: await merchantName(db, scope),
      title: `Invoice ${invoice.number}`,
      amount: invoice.total,
      currency: invoice.currency,
      date: iso(invoice.paidAt),
      lines: invoice.lineItems.map((item) => ({
        description: item.quantity === 1 ? item.description : `${item.description} × ${item.quantity}`,
        amount: (BigInt(item.unitAmount) * BigInt(item.quantity)).toString(),
      })),
      transactionHash: session?.transactionHash ?? null,
      chainId: session ? Number(session.transactionChainId ?? session.chainId) : null,
      paymentSessionId: invoice.sessionId,
      pdf: 'invoice',
    },
  };
}

const DRAFTS: Record<ReceiptKind, (db: Db, scope: Scope, id: string) => Promise<ReceiptDraft | undefined>> = {
  payment: paymentDraft,
  subscription_charge: chargeDraft,
  refund: refundDraft,
  invoice: invoiceDraft,
};

export function receiptDraft(db: Db, scope: Scope, kind: ReceiptKind, objectId: string): Promise<ReceiptDraft | undefined> {
  return DRAFTS[kind](db, scope, objectId);
}
