// The public side of receipts: the page and the charge's PDF behind the emailed link. The link's token
// is looked up by its hash; anything else is a miss (undefined), whatever the reason.
import type { Db } from '../db/client.js';
import { findMerchantDisplay, findPaymentSessionById } from '../payment-sessions/repo.js';
import { findRefundById } from '../refunds/repo.js';
import { renderChargeReceiptPdf } from '../subscription-charges/receipt-pdf.js';
import { findChargeById } from '../subscription-charges/repo.js';
import type { ReceiptData } from './content.js';
import { renderReceiptPage, type RefundState } from './page.js';
import { hashReceiptToken, receiptPagePath } from './queue.js';
import { findReceiptByTokenHash, type StoredReceipt } from './repo.js';

/** A token of the shape we issue (32 random bytes, base64url); anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

async function findReceipt(db: Db, token: string): Promise<StoredReceipt | undefined> {
  return TOKEN.test(token) ? findReceiptByTokenHash(db, hashReceiptToken(token)) : undefined;
}

async function refundStateOf(db: Db, data: ReceiptData): Promise<RefundState> {
  if (data.kind === 'refund') {
    const refund = await findRefundById(db, data.objectId);
    return refund ? { refundStatus: refund.status } : null;
  }
  if (!data.paymentSessionId) return null;
  const session = await findPaymentSessionById(db, data.paymentSessionId);
  return session ? { refunded: session.amountRefunded, of: data.amount } : null;
}

function pdfUrl(token: string, data: ReceiptData): string | null {
  if (data.pdf === 'subscription_charge') return `${receiptPagePath(token)}/receipt.pdf`;
  if (data.pdf === 'invoice' && data.paymentSessionId) return `/checkout/${data.paymentSessionId}/invoice.pdf`;
  return null;
}

export function createReceiptPageService({ sql }: { sql: Db }) {
  return {
    async page(token: string): Promise<string | undefined> {
      const receipt = await findReceipt(sql, token);
      if (!receipt) return undefined;
      return renderReceiptPage({
        data: receipt.data,
        livemode: receipt.livemode,
        refundState: await refundStateOf(sql, receipt.data),
        pdfUrl: pdfUrl(token, receipt.data),
      });
    },

    /** The subscription charge's receipt PDF (the same document as GET /v1/subscription-charges/{id}/receipt). */
    async chargePdf(token: string): Promise<{ chargeId: string; pdf: Buffer } | undefined> {
      const receipt = await findReceipt(sql, token);
      if (receipt?.data.kind !== 'subscription_charge') return undefined;
      const charge = await findChargeById(sql, receipt.data.objectId);
      if (!charge || charge.merchantId !== receipt.merchantId) return undefined;
      const merchant = await findMerchantDisplay(sql, { merchantId: receipt.merchantId, livemode: receipt.livemode });
      return { chargeId: charge.id, pdf: await renderChargeReceiptPdf(charge, merchant?.name ?? 'Your supplier', 'USDC') };
    },
  };
}

export type ReceiptPageService = ReturnType<typeof createReceiptPageService>;
