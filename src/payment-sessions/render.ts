// The API shape of a payment session (and its checkout URL), shared by the routes, the
// activities that record its events and the invoices that link to it.
import type * as repo from './repo.js';
import type { PaymentSession } from './schemas.js';

export function checkoutUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/checkout/${id}`;
}

export function renderPaymentSession(row: repo.PaymentSessionRow, publicBaseUrl: string): PaymentSession {
  return {
    id: row.id,
    object: 'payment_session',
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    payTo: row.payTo,
    token: row.token,
    chainId: Number(row.chainId),
    expiresAt: row.expiresAt.toISOString(),
    successUrl: row.successUrl,
    cancelUrl: row.cancelUrl,
    metadata: row.metadata,
    checkoutUrl: checkoutUrl(publicBaseUrl, row.id),
    invoiceId: row.invoiceId,
    productId: row.productId,
    productName: row.productName,
    payer: row.payer,
    transactionHash: row.transactionHash,
    completedAt: row.completedAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}
