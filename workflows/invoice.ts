// invoiceWorkflow: one per invoice (workflow id = invoice id), started at
// creation. Owns the transitions after it: delivering the invoice email on the
// send signal (invoice.sent only once the SMTP server accepted it: the delivery
// activity sends the queued email, then records invoice.sent), a durable
// timer to dueAt (sent -> overdue, invoice.overdue), the paid signal from the
// backing session (invoice.paid) and the void signal (ends the workflow).
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { DATABASE_ACTIVITY, EMAIL_ACTIVITY } from './options.js';

const { markInvoiceOverdue, markInvoicePaid } = proxyActivities<Activities>(DATABASE_ACTIVITY);
const { deliverInvoiceEmail } = proxyActivities<Activities>(EMAIL_ACTIVITY);

export type InvoiceInput = { invoiceId: string; dueAt: string };
export type InvoiceOutcome = 'paid' | 'void';

export const sendInvoiceSignal = defineSignal('sendInvoice');
export const invoicePaidSignal = defineSignal('invoicePaid');
export const voidInvoiceSignal = defineSignal('voidInvoice');

export async function invoiceWorkflow({ invoiceId, dueAt }: InvoiceInput): Promise<InvoiceOutcome> {
  let sendPending = false;
  let paid = false;
  let voided = false;
  setHandler(sendInvoiceSignal, () => void (sendPending = true));
  setHandler(invoicePaidSignal, () => void (paid = true));
  setHandler(voidInvoiceSignal, () => void (voided = true));

  const dueMs = Date.parse(dueAt);
  let dueReached = false;
  const woken = () => sendPending || paid || voided;
  for (;;) {
    const signalled = dueReached ? (await condition(woken), true) : await condition(woken, Math.max(0, dueMs - Date.now()));
    if (paid) {
      await markInvoicePaid(invoiceId);
      return 'paid';
    }
    if (voided) return 'void';
    if (sendPending) {
      sendPending = false;
      // Delivery runs beside the timer and the paid signal (an SMTP outage retried for days must not
      // hold back a payment). The invoice is already `sent`, so the dueAt timer applies meanwhile.
      void deliverInvoiceEmail(invoiceId).catch(() => undefined);
      if (dueReached) await markInvoiceOverdue(invoiceId);
      continue;
    }
    if (!signalled) {
      dueReached = true;
      await markInvoiceOverdue(invoiceId);
    }
  }
}
