// The API shape of an invoice and the text of its email, shared by the routes and the activities.
import type * as repo from './repo.js';
import type { Invoice } from './schemas.js';
import { checkoutUrl } from '../payment-sessions/render.js';

export function renderInvoice(row: repo.InvoiceRow, publicBaseUrl: string): Invoice {
  return {
    id: row.id,
    object: 'invoice',
    number: row.number,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    currency: row.currency,
    lineItems: row.lineItems,
    subtotal: row.subtotal,
    total: row.total,
    status: row.status,
    sessionId: row.sessionId,
    payUrl: checkoutUrl(publicBaseUrl, row.sessionId),
    dueAt: row.dueAt.toISOString(),
    dueInDays: row.dueInDays,
    note: row.note,
    sentAt: row.sentAt?.toISOString() ?? null,
    paidAt: row.paidAt?.toISOString() ?? null,
    voidedAt: row.voidedAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

export function invoiceEmail(row: repo.InvoiceRow, merchantName: string, publicBaseUrl: string): { subject: string; text: string } {
  const units = BigInt(row.total);
  const amount = `${units / 1_000_000n}.${(units % 1_000_000n).toString().padStart(6, '0')}`;
  return {
    subject: `Invoice ${row.number} from ${merchantName}`,
    text: [
      `Hello${row.customerName ? ` ${row.customerName}` : ''},`,
      '',
      `${merchantName} sent you invoice ${row.number} for ${amount} ${row.currency}, due ${row.dueAt.toISOString().slice(0, 10)}.`,
      ...(row.note ? ['', row.note] : []),
      '',
      `Pay it here: ${checkoutUrl(publicBaseUrl, row.sessionId)}`,
    ].join('\n'),
  };
}
