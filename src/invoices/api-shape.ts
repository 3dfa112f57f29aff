// The API shape of an invoice and the text of its email, shared by the routes and the activities.
import type * as repo from './repo.js';
import type { Invoice } from './schemas.js';
import { checkoutUrl } from '../payment-sessions/api-shape.js';
import { formatMoney } from '../money/format.js';

/**
 * The customer's page of an invoice. Keyed by the backing session's id, which is already the
 * unguessable public pay link (80 random bits): the invoice page adds no new secret to leak.
 */
export function hostedInvoiceUrl(publicBaseUrl: string, sessionId: string): string {
  return `${checkoutUrl(publicBaseUrl, sessionId)}/invoice`;
}

export function renderInvoice(row: repo.InvoiceRow, publicBaseUrl: string): Invoice {
  return {
    id: row.id,
    object: 'invoice',
    number: row.number,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    customerId: row.customerId,
    currency: row.currency,
    lineItems: row.lineItems,
    subtotal: row.subtotal,
    total: row.total,
    status: row.status,
    sessionId: row.sessionId,
    payUrl: checkoutUrl(publicBaseUrl, row.sessionId),
    hostedInvoiceUrl: hostedInvoiceUrl(publicBaseUrl, row.sessionId),
    dueAt: row.dueAt.toISOString(),
    dueInDays: row.dueInDays,
    note: row.note,
    sentAt: row.sentAt?.toISOString() ?? null,
    paidAt: row.paidAt?.toISOString() ?? null,
    voidedAt: row.voidedAt?.toISOString() ?? null,
    testClock: row.testClockId,
    metadata: row.metadata,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

export function invoiceEmail(row: repo.InvoiceRow, merchantName: string, publicBaseUrl: string): { subject: string; text: string } {
  return {
    subject: `Invoice ${row.number} from ${merchantName}`,
    text: [
      `Hello${row.customerName ? ` ${row.customerName}` : ''},`,
      '',
      `${merchantName} sent you invoice ${row.number} for ${formatMoney(row.total, row.currency)}, due ${row.dueAt.toISOString().slice(0, 10)}.`,
      ...(row.note ? ['', row.note] : []),
      '',
      `View the invoice: ${hostedInvoiceUrl(publicBaseUrl, row.sessionId)}`,
      `Pay it here: ${checkoutUrl(publicBaseUrl, row.sessionId)}`,
    ].join('\n'),
  };
}
