// What a customer reads on an invoice, in words: shared by the hosted page and the PDF so both
// say the same thing. Money through the one server-side formatter; dates as UTC days.
import { formatMoney } from '../money/format.js';
import { checkoutUrl } from '../payment-sessions/api-shape.js';
import { hostedInvoiceUrl } from './api-shape.js';
import type { InvoiceRow } from './repo.js';

export type InvoiceDocument = {
  merchantName: string;
  number: string;
  status: InvoiceRow['status'];
  issuedOn: string;
  dueOn: string;
  paidOn: string | null;
  customerName: string | null;
  customerEmail: string | null;
  note: string | null;
  lines: { description: string; quantity: string; unitAmount: string; amount: string }[];
  total: string;
  payUrl: string;
  hostedUrl: string;
  /** Whether its session still takes a payment (draft, sent, overdue): not paid, not void. */
  payable: boolean;
};

const day = (date: Date) => date.toISOString().slice(0, 10);

export function invoiceDocument(row: InvoiceRow, merchantName: string, publicBaseUrl: string): InvoiceDocument {
  return {
    merchantName,
    number: row.number,
    status: row.status,
    issuedOn: day(row.createdAt),
    dueOn: day(row.dueAt),
    paidOn: row.paidAt ? day(row.paidAt) : null,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    note: row.note,
    lines: row.lineItems.map((item) => ({
      description: item.description,
      quantity: String(item.quantity),
      unitAmount: formatMoney(item.unitAmount, row.currency),
      amount: formatMoney((BigInt(item.quantity) * BigInt(item.unitAmount)).toString(), row.currency),
    })),
    total: formatMoney(row.total, row.currency),
    payUrl: checkoutUrl(publicBaseUrl, row.sessionId),
    hostedUrl: hostedInvoiceUrl(publicBaseUrl, row.sessionId),
    payable: row.status === 'draft' || row.status === 'sent' || row.status === 'overdue',
  };
}
