// invoiceWorkflow: one per invoice (workflow id = invoice id), started at
// creation. Owns the transitions after it: delivering the invoice email on the
// send signal (invoice.sent only once the SMTP server accepted it: the delivery
// activity sends the queued email, then records invoice.sent), a durable
// timer to dueAt (sent -> overdue, invoice.overdue), the paid signal from the
// backing session (invoice.paid) and the void signal (ends the workflow).
// On a test clock (issue #30) the wait to dueAt is on the clock's time (workflows/clock.ts).
// BusinessStatus (workflows/business-status.ts) follows the invoice's status from the one it was
// started with: sent, overdue, paid, void.
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { businessStatus, publishBusinessStatus } from './business-status.js';
import { workflowClock } from './clock.js';
import { DATABASE_ACTIVITY, EMAIL_ACTIVITY } from './options.js';

const { markInvoiceOverdue, markInvoicePaid } = proxyActivities<Activities>(DATABASE_ACTIVITY);
const { deliverInvoiceEmail } = proxyActivities<Activities>(EMAIL_ACTIVITY);

export type InvoiceInput = {
  invoiceId: string;
  dueAt: string;
  /** The test clock whose time dueAt is on (test mode, issue #30). Absent: wall time. */
  testClockId?: string;
};
export type InvoiceOutcome = 'paid' | 'void';

/** One run per invoice: the id is the invoice's. */
export const invoiceWorkflowId = (invoiceId: string): string => invoiceId;

export const sendInvoiceSignal = defineSignal('sendInvoice');
export const invoicePaidSignal = defineSignal('invoicePaid');
export const voidInvoiceSignal = defineSignal('voidInvoice');

export async function invoiceWorkflow(input: InvoiceInput): Promise<InvoiceOutcome> {
  // Off a clock, join and detach do nothing and the wait is the timer of before: old runs replay.
  const clock = workflowClock(input.testClockId);
  await clock.join();
  try {
    return await invoiceRun(input, clock);
  } finally {
    await clock.detach();
  }
}

async function invoiceRun({ invoiceId, dueAt }: InvoiceInput, clock: ReturnType<typeof workflowClock>): Promise<InvoiceOutcome> {
  let sendPending = false;
  let paid = false;
  let voided = false;
  let delivering = false;
  setHandler(sendInvoiceSignal, () => void (sendPending = true));
  setHandler(invoicePaidSignal, () => void (paid = true));
  setHandler(voidInvoiceSignal, () => void (voided = true));

  const dueMs = Date.parse(dueAt);
  let dueReached = false;
  const woken = () => sendPending || paid || voided;
  // Every wait goes through the clock (an attached run acknowledges each advance there); once the
  // clock is deleted nothing is left to wait for on its time.
  const wait = async (ms?: number) => (clock.deleted() ? (await condition(woken), true) : clock.waitFor(woken, ms));
  for (;;) {
    const signalled = dueReached ? await wait() : await wait(Math.max(0, dueMs - clock.now()));
    if (paid) {
      await markInvoicePaid(invoiceId);
      publishBusinessStatus('paid');
      return 'paid';
    }
    if (voided) {
      publishBusinessStatus('void');
      return 'void';
    }
    if (sendPending) {
      sendPending = false;
      // Delivery runs beside the timer and the paid signal (an SMTP outage retried for days must not
      // hold back a payment). The invoice is already `sent`, so the dueAt timer applies meanwhile.
      // A send signal while the email is being delivered starts no second delivery (the outbox
      // sweep and the daily invoice repair may send it again).
      if (!delivering) {
        delivering = true;
        // A delivery that failed for good (or for 3 days) is tried again by the next send signal.
        void deliverInvoiceEmail(invoiceId)
          .catch(() => undefined)
          .finally(() => void (delivering = false));
      }
      if (dueReached) await markInvoiceOverdue(invoiceId);
      publishBusinessStatus(dueReached ? 'overdue' : 'sent');
      continue;
    }
    if (!signalled && clock.deleted()) {
      // The clock was deleted (the API voids its invoices): the due date no longer passes.
      continue;
    }
    if (!signalled) {
      dueReached = true;
      // false: a draft (never sent, so never overdue) or already overdue (the daily sweep came first).
      if ((await markInvoiceOverdue(invoiceId)) || businessStatus() === 'sent') publishBusinessStatus('overdue');
    }
  }
}

const { repairOpenInvoices } = proxyActivities<Activities>(DATABASE_ACTIVITY);

export const INVOICE_REPAIR_PAGE = 100;

export type InvoiceSweepResult = { overdue: number; resent: number; restarted: number };

/**
 * invoiceSweepWorkflow: the spec's daily scheduled job for invoices, run by the `invoice-daily`
 * Temporal Schedule (src/temporal/schedules.ts). The per-invoice dueAt timer turns an invoice
 * overdue on time; this sweep turns overdue any `sent` invoice past dueAt the timer missed, sends
 * again the email of a sent invoice SMTP never accepted, and starts the workflow of any open
 * invoice that has none. Its logic is the repairOpenInvoices activity, so tests start it directly.
 */
export async function invoiceSweepWorkflow(): Promise<InvoiceSweepResult> {
  const total: InvoiceSweepResult = { overdue: 0, resent: 0, restarted: 0 };
  let afterId: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof repairOpenInvoices>> = await repairOpenInvoices({ afterId, limit: INVOICE_REPAIR_PAGE });
    total.overdue += page.overdue;
    total.resent += page.resent;
    total.restarted += page.restarted;
    afterId = page.nextAfterId;
  } while (afterId !== null);
  return total;
}
