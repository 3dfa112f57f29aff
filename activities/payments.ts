// Activities of paymentSessionWorkflow and invoiceWorkflow. Each is idempotent
// on its business id: a state change is a conditional UPDATE (only from the
// expected status), and its event is recorded in the same transaction only when
// the UPDATE changed the row, so a retried activity neither doubles an event
// nor moves a finished object.

import type { Db } from '../src/db/client.js';
import { startEventDispatch } from '../src/events/dispatch.js';
import { recordEvent } from '../src/events/outbox.js';
import type { EventType } from '../src/events/types.js';
import * as invoiceRepo from '../src/invoices/repo.js';
import { INVOICE_SIGNALS, INVOICE_WORKFLOW, renderInvoice } from '../src/invoices/service.js';
import * as sessionRepo from '../src/payment-sessions/repo.js';
import { PAYMENT_SESSION_WORKFLOW, renderPaymentSession } from '../src/payment-sessions/service.js';
import { findSubmissionPaymentSession } from '../src/relay/repo.js';
import { createEmailActivities, type EmailActivityDeps } from './email.js';

export type PaymentActivityDeps = EmailActivityDeps & { publicBaseUrl?: string };

/** Signal names of paymentSessionWorkflow (the workflow defines them with defineSignal). */
export const PAYMENT_SESSION_SIGNALS = { confirmed: 'paymentConfirmed', failed: 'paymentFailed' } as const;

export function createPaymentActivities(deps: PaymentActivityDeps) {
  const { sql, temporal, taskQueue } = deps;
  const publicBaseUrl = deps.publicBaseUrl ?? 'http://localhost:3000';
  const email = createEmailActivities(deps);

  async function dispatch(eventId: string | undefined): Promise<void> {
    if (eventId) await startEventDispatch(temporal, taskQueue, eventId);
  }

  async function invoiceTransition(
    invoiceId: string,
    change: (tx: Db) => Promise<invoiceRepo.InvoiceRow | undefined>,
    type: EventType,
  ): Promise<boolean> {
    const eventId = await sql.begin(async (tx) => {
      const row = await change(tx);
      if (!row) return undefined;
      const event = await recordEvent(tx, { merchantId: row.merchantId, livemode: row.livemode, type, data: { object: renderInvoice(row, publicBaseUrl) } });
      return event.id;
    });
    await dispatch(eventId);
    return eventId !== undefined;
  }

  return {
    /** open | processing -> completed, payment.completed; then tells the invoice it backs (signal-with-start). */
    async completePaymentSession(input: { sessionId: string; transactionHash: string }): Promise<{ completed: boolean; invoiceId: string | null }> {
      const eventId = await sql.begin(async (tx) => {
        if (!(await sessionRepo.markCompleted(tx, input.sessionId, input.transactionHash))) return undefined;
        const row = (await sessionRepo.findPaymentSessionById(tx, input.sessionId))!;
        const event = await recordEvent(tx, {
          merchantId: row.merchantId,
          livemode: row.livemode,
          type: 'payment.completed',
          data: { object: renderPaymentSession(row, publicBaseUrl) },
        });
        return event.id;
      });
      await dispatch(eventId);
      const invoice = await invoiceRepo.findInvoiceBySession(sql, input.sessionId);
      if (invoice) {
        await temporal.workflow.signalWithStart(INVOICE_WORKFLOW, {
          workflowId: invoice.id,
          taskQueue,
          args: [{ invoiceId: invoice.id, dueAt: invoice.dueAt.toISOString() }],
          signal: INVOICE_SIGNALS.paid,
          signalArgs: [],
        });
      }
      return { completed: eventId !== undefined, invoiceId: invoice?.id ?? null };
    },

    /** open -> expired; false when the session is not open (a payment is processing, or it finished). */
    async expirePaymentSession(sessionId: string): Promise<boolean> {
      return sessionRepo.markExpired(sql, sessionId);
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
      const signalArgs: unknown[] = [confirmed ? { transactionHash: link.transactionHash, submissionId: input.submissionId } : { submissionId: input.submissionId }];
      await temporal.workflow.signalWithStart(PAYMENT_SESSION_WORKFLOW, {
        workflowId: session.id,
        taskQueue,
        args: [{ sessionId: session.id, expiresAt: session.expiresAt.toISOString() }],
        signal: confirmed ? PAYMENT_SESSION_SIGNALS.confirmed : PAYMENT_SESSION_SIGNALS.failed,
        signalArgs,
      });
    },

    /** Sends the invoice's queued email (idempotent by email id), then records invoice.sent once. */
    async deliverInvoiceEmail(invoiceId: string): Promise<boolean> {
      const invoice = await invoiceRepo.findInvoiceById(sql, invoiceId);
      if (!invoice?.emailId) return false;
      await email.sendQueuedEmail(invoice.emailId);
      return invoiceTransition(invoiceId, (tx) => invoiceRepo.markEmailDelivered(tx, invoiceId), 'invoice.sent');
    },

    /** sent -> overdue with invoice.overdue; false when the invoice is not sent. */
    async markInvoiceOverdue(invoiceId: string): Promise<boolean> {
      return invoiceTransition(invoiceId, (tx) => invoiceRepo.markOverdue(tx, invoiceId), 'invoice.overdue');
    },

    /** -> paid with invoice.paid; false when already paid or void. */
    async markInvoicePaid(invoiceId: string): Promise<boolean> {
      return invoiceTransition(invoiceId, (tx) => invoiceRepo.markPaid(tx, invoiceId), 'invoice.paid');
    },
  };
}

export type PaymentActivities = ReturnType<typeof createPaymentActivities>;

