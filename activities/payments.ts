// Activities of paymentSessionWorkflow and invoiceWorkflow. Each is idempotent
// on its business id: a state change is a conditional UPDATE (only from the
// expected status), and its event is recorded in the same transaction only when
// the UPDATE changed the row, so a retried activity neither doubles an event
// nor moves a finished object.

import type { Db } from '../src/db/client.js';
import { wakeEventDispatcher } from '../src/events/dispatch.js';
import { commitWithEvents } from '../src/events/commit.js';
import type { EventDispatcher } from '../src/events/dispatch.js';
import type { EventType } from '../src/events/types.js';
import * as invoiceRepo from '../src/invoices/repo.js';
import { renderInvoice } from '../src/invoices/api-shape.js';
import { invoiceWorkflowRun } from '../src/invoices/starts.js';
import { attachPayingCustomer } from '../src/customers/payer.js';
import * as sessionRepo from '../src/payment-sessions/repo.js';
import { renderPaymentSession } from '../src/payment-sessions/api-shape.js';
import { settleLateDeposits } from '../src/payment-sessions/deposit-accounting.js';
import { paymentSessionWorkflowRun } from '../src/payment-sessions/starts.js';
import { findSubmissionPaymentSession } from '../src/relay/repo.js';
import { permanentFailure, PERMANENT_FAILURES } from '../src/temporal/failures.js';
import { discardPendingWorkflowStarts } from '../src/temporal/start-outbox.js';
import { startWorkflowOnce } from '../src/temporal/start-once.js';
import { signalWithStart } from '../src/temporal/signals.js';
import { invoicePaidSignal, invoiceWorkflow, sendInvoiceSignal } from '../workflows/invoice.js';
import { paymentConfirmedSignal, paymentFailedSignal, paymentSessionWorkflow } from '../workflows/payment-session.js';
import { createEmailActivities, type EmailActivityDeps } from './email.js';

export type PaymentActivityDeps = EmailActivityDeps & { publicBaseUrl?: string };

export function createPaymentActivities(deps: PaymentActivityDeps) {
  const { sql, temporal, taskQueue } = deps;
  const publicBaseUrl = deps.publicBaseUrl ?? 'http://localhost:3000';
  const email = createEmailActivities(deps);

  // Events are committed first; then the dispatcher fans them out (a failed wake-up is retried with the activity, and the sweep catches it anyway).
  const events: EventDispatcher = { dispatch: () => wakeEventDispatcher(temporal, taskQueue) };

  async function invoiceTransition(
    invoiceId: string,
    change: (tx: Db) => Promise<invoiceRepo.InvoiceRow | undefined>,
    type: EventType,
  ): Promise<boolean> {
    return commitWithEvents(sql, events, async (tx, record) => {
      const row = await change(tx);
      if (!row) return false;
      await record({ merchantId: row.merchantId, livemode: row.livemode, type, data: { object: renderInvoice(row, publicBaseUrl) } });
      return true;
    });
  }

  return {
    /** open | processing -> completed, payment.completed; then tells the invoice it backs (signal-with-start). */
    async completePaymentSession(input: {
      sessionId: string;
      transactionHash: string;
    }): Promise<{ completed: boolean; invoiceId: string | null; chainId: number | null }> {
      const completed = await commitWithEvents(sql, events, async (tx, record) => {
        if (!(await sessionRepo.markCompleted(tx, input.sessionId, input.transactionHash))) return false;
        // A start of this session's workflow still queued would run a second workflow for a finished session.
        await discardPendingWorkflowStarts(tx, input.sessionId);
        // The wallet that paid becomes (or is found as) the merchant's customer, before the event renders it.
        await attachPayingCustomer(tx, (await sessionRepo.findPaymentSessionById(tx, input.sessionId))!);
        const row = (await sessionRepo.findPaymentSessionById(tx, input.sessionId))!;
        await record({
          merchantId: row.merchantId,
          livemode: row.livemode,
          type: 'payment.completed',
          data: { object: renderPaymentSession(row, publicBaseUrl) },
        });
        return true;
      });
      const invoice = await invoiceRepo.findInvoiceBySession(sql, input.sessionId);
      if (invoice) {
        await signalWithStart(temporal, invoiceWorkflow, invoiceWorkflowRun(taskQueue, invoice), invoicePaidSignal);
      }
      // The chain of the transaction that paid it (the run's ChainId, workflows/payment-session.ts).
      const paid = await sessionRepo.findPaymentSessionById(sql, input.sessionId);
      const chainId = paid?.transactionChainId == null ? null : Number(paid.transactionChainId);
      return { completed, invoiceId: invoice?.id ?? null, chainId };
    },

    /**
     * open -> expired; false when a payment is processing (the workflow waits for its outcome).
     * True as well when the session already ended (cancelled, completed, expired): a workflow that
     * missed the signal of that end must not wait forever. A session that does not exist is a
     * permanent failure (PaymentSessionNotFound).
     */
    async expirePaymentSession(sessionId: string): Promise<boolean> {
      if (await sessionRepo.markExpired(sql, sessionId)) {
        // A transfer to its deposit address not credited in time is a late deposit.
        await settleLateDeposits({ sql, events, publicBaseUrl }, sessionId);
        return true;
      }
      const session = await sessionRepo.findPaymentSessionById(sql, sessionId);
      if (!session) throw permanentFailure(PERMANENT_FAILURES.paymentSessionNotFound, `payment session ${sessionId} does not exist`);
      const ended = session.status !== 'open' && session.status !== 'processing';
      if (ended) await settleLateDeposits({ sql, events, publicBaseUrl }, sessionId);
      return ended;
    },

    /** processing -> open (or expired) after its relayed payment failed on-chain. */
    async reopenPaymentSession(sessionId: string): Promise<void> {
      await sessionRepo.reopenAfterFailure(sql, sessionId);
    },

    /**
     * Run by relaySubmissionWorkflow once its submission is final: tells the session it pays
     * (signal-with-start on the session id, so a lost session start is repaired here).
     */
    async reportRelayOutcomeToSession(input: { submissionId: string }): Promise<void> {
      const link = await findSubmissionPaymentSession(sql, input.submissionId);
      if (!link || (link.status !== 'confirmed' && link.status !== 'failed')) return;
      const session = await sessionRepo.findPaymentSessionById(sql, link.paymentSessionId);
      if (!session) return;
      const confirmed = link.status === 'confirmed' && link.transactionHash !== null;
      const run = paymentSessionWorkflowRun(taskQueue, session);
      if (confirmed) {
        await signalWithStart(temporal, paymentSessionWorkflow, run, paymentConfirmedSignal, {
          transactionHash: link.transactionHash!,
          submissionId: input.submissionId,
        });
      } else {
        await signalWithStart(temporal, paymentSessionWorkflow, run, paymentFailedSignal, { submissionId: input.submissionId });
      }
    },

    /** Sends the invoice's queued email (idempotent by email id), then records invoice.sent once. */
    async deliverInvoiceEmail(invoiceId: string): Promise<boolean> {
      const invoice = await invoiceRepo.findInvoiceById(sql, invoiceId);
      if (!invoice?.emailId) return false;
      await email.sendQueuedEmail(invoice.emailId);
      return invoiceTransition(invoiceId, (tx) => invoiceRepo.markEmailDelivered(tx, invoiceId), 'invoice.sent');
    },

    /**
     * One page of the daily invoice repair (run by invoiceSweepWorkflow from the `invoice-daily`
     * Schedule). For each invoice that is not final: a `sent` invoice past dueAt turns overdue
     * (invoice.overdue, the spec's daily job); a sent or overdue invoice whose email SMTP never
     * accepted gets its send again (signal-with-start: a missing workflow is started, and a running
     * delivery ignores it); any other invoice whose workflow is missing (never started, terminated,
     * lost) gets it started again. Idempotent: a running workflow is left alone.
     */
    async repairOpenInvoices(input: { afterId: string | null; limit: number }): Promise<{
      nextAfterId: string | null;
      overdue: number;
      resent: number;
      restarted: number;
    }> {
      const invoices = await invoiceRepo.listOpenInvoices(sql, input.afterId, input.limit);
      let overdue = 0;
      let resent = 0;
      let restarted = 0;
      for (const invoice of invoices) {
        // An invoice on a test clock goes overdue on the clock's time (its workflow), never on wall time.
        if (invoice.status === 'sent' && invoice.testClockId === null && invoice.dueAt.getTime() <= Date.now()) {
          if (await invoiceTransition(invoice.id, (tx) => invoiceRepo.markOverdue(tx, invoice.id), 'invoice.overdue')) overdue++;
        }
        const run = invoiceWorkflowRun(taskQueue, invoice);
        if (invoice.status !== 'draft' && invoice.emailId && !invoice.sentAt) {
          await signalWithStart(temporal, invoiceWorkflow, run, sendInvoiceSignal);
          resent++;
        } else if (await startWorkflowOnce(temporal, invoiceWorkflow, run)) {
          restarted++;
        }
      }
      const last = invoices.at(-1);
      return { nextAfterId: invoices.length < input.limit || !last ? null : last.id, overdue, resent, restarted };
    },

    /** sent -> overdue with invoice.overdue; false when the invoice is not sent. */
    async markInvoiceOverdue(invoiceId: string): Promise<boolean> {
      return invoiceTransition(invoiceId, (tx) => invoiceRepo.markOverdue(tx, invoiceId), 'invoice.overdue');
    },

    /** -> paid with invoice.paid; false when already paid or void. */
    async markInvoicePaid(invoiceId: string): Promise<boolean> {
      return invoiceTransition(
        invoiceId,
        async (tx) => {
          const paid = await invoiceRepo.markPaid(tx, invoiceId);
          // A start or send of this invoice's workflow still queued has nothing left to do.
          if (paid) await discardPendingWorkflowStarts(tx, invoiceId);
          return paid;
        },
        'invoice.paid',
      );
    },
  };
}

export type PaymentActivities = ReturnType<typeof createPaymentActivities>;
