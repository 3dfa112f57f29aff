// Payment sessions name their invoice by id; people know invoices by number.
// This adds the number to each session of a page (one lookup per distinct invoice).
import { api, type Page } from './api.ts';
import type { Invoice, PaymentSession } from './types.ts';

export type SessionWithInvoice = PaymentSession & { invoiceNumber?: string };

export async function withInvoiceNumbers(page: Page<PaymentSession>): Promise<Page<SessionWithInvoice>> {
  const ids = [...new Set(page.data.map((s) => s.invoiceId).filter((id): id is string => Boolean(id)))];
  const numbers = new Map<string, string>();
  await Promise.all(
    ids.map(async (id) => {
      // A missing invoice keeps the row readable ("Invoice"); the list must not fail for it.
      const invoice = await api.get<Invoice>(`/v1/invoices/${id}`).catch(() => null);
      if (invoice) numbers.set(id, invoice.number);
    }),
  );
  return {
    ...page,
    data: page.data.map((s) => (s.invoiceId && numbers.has(s.invoiceId) ? { ...s, invoiceNumber: numbers.get(s.invoiceId) } : s)),
  };
}

/** What a payment session paid for, in words. */
export function paidFor(s: SessionWithInvoice): string {
  if (s.productName) return s.productName;
  if (s.invoiceId) return s.invoiceNumber ? `Invoice ${s.invoiceNumber}` : 'Invoice';
  if (s.x402) return `x402: ${s.x402.resource.description ?? s.x402.resource.url ?? 'resource'}`;
  return '—';
}
