// Invoices: numbered per merchant, mode and year, backed by a payment session.
// One invoiceWorkflow per invoice (workflow id = invoice id) owns the
// transitions after creation: delivering the email (invoice.sent), the dueAt
// timer (overdue), the paid signal from its session. The api changes state only
// where the caller must see the result at once (send -> sent, void).
import { createdRangeOf } from '../http/list-filters.js';
import type { Client } from '@temporalio/client';
import type { ChainConfig } from '../chain/config.js';
import type { Db, Sql } from '../db/client.js';
import { queueEmail, startEmailDelivery } from '../email/service.js';
import { markDeliveryStarted } from '../email/repo.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import { findCustomer } from '../customers/repo.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents, type RecordEvent } from '../events/commit.js';
import { updateMetadata } from '../http/metadata.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { isId, newId } from '../ids.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import { insertSessionInTx } from '../payment-sessions/service.js';
import { objectClock } from '../test-clocks/object-clock.js';
import { paymentSessionWorkflowStart } from '../payment-sessions/starts.js';
import {
  createWorkflowStarter,
  discardPendingWorkflowStarts,
  queueWorkflowStart,
  type QueuedWorkflowStart,
  withSignal,
} from '../temporal/start-outbox.js';
import { cancelPaymentSessionSignal } from '../../workflows/payment-session.js';
import { voidInvoiceSignal } from '../../workflows/invoice.js';
import { invoiceDocument, type InvoiceDocument } from './page-text.js';
import { invoicePageHtml } from './page.js';
import { renderInvoicePdf } from './pdf.js';
import { invoiceEmail, renderInvoice } from './api-shape.js';
import { invoiceWorkflowStart } from './starts.js';
import * as repo from './repo.js';
import type { CreateInvoiceBody, Invoice, InvoiceListQuery, LineItem, UpdateInvoiceBody } from './schemas.js';

/** A backing session outlives dueAt by this much: an overdue invoice can still be paid. */
export const SESSION_GRACE_DAYS = 365;
const DAY_MS = 24 * 3600 * 1000;

export function invoiceTotals(items: readonly Pick<LineItem, 'quantity' | 'unitAmount'>[]): { subtotal: bigint; total: bigint } {
  const subtotal = items.reduce((sum, item) => sum + BigInt(item.quantity) * BigInt(item.unitAmount), 0n);
  return { subtotal, total: subtotal };
}

export function formatInvoiceNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(4, '0')}`;
}

/**
 * An invoice with its backing session and its invoice.created event, in the caller's transaction; the caller
 * starts the returned workflow starts after commit (POST /v1/invoices, and a metered period's open invoice for the
 * usage above the cap, src/billing-meters/period-close.ts).
 */
export async function insertInvoiceInTx(
  tx: Db,
  record: RecordEvent,
  deps: { chain: ChainConfig; publicBaseUrl: string; taskQueue: string },
  scope: MerchantScope,
  input: Omit<CreateInvoiceBody, 'currency' | 'dueInDays'> & { currency?: CreateInvoiceBody['currency']; dueInDays?: number },
): Promise<{ row: repo.InvoiceRow; starts: QueuedWorkflowStart[] }> {
  const currency = input.currency ?? 'USDC';
  const dueInDays = input.dueInDays ?? 30;
  const { subtotal, total } = invoiceTotals(input.lineItems);
  const now = new Date();
  // On a test clock the due date (and the backing session's expiry) count from the clock's time.
  const clock = await objectClock(tx, scope, input.testClock);
  const dueAt = new Date(clock.nowMs + dueInDays * DAY_MS);
  const session = await insertSessionInTx(tx, deps.chain, scope, {
    amount: total.toString(),
    currency,
    expiresAt: new Date(dueAt.getTime() + SESSION_GRACE_DAYS * DAY_MS),
    testClockId: clock.testClockId,
    clockChainId: clock.chainId,
  });
  // A named customer must be this merchant's and mode's; their email is the default recipient.
  const customer = input.customerId ? await findCustomer(tx, scope, input.customerId) : undefined;
  if (input.customerId && !customer) {
    throw new InvalidRequestError(`No such customer: ${input.customerId}.`, { param: 'customerId' });
  }
  const year = now.getUTCFullYear();
  const sequence = await repo.nextInvoiceNumber(tx, scope, year);
  const row = await repo.insertInvoice(tx, {
    id: newId('invoice'),
    ...scope,
    number: formatInvoiceNumber(year, sequence),
    customerName: input.customerName ?? null,
    customerEmail: input.customerEmail ?? customer?.email ?? null,
    customerId: customer?.id ?? null,
    currency,
    lineItems: input.lineItems,
    subtotal: subtotal.toString(),
    total: total.toString(),
    sessionId: session.id,
    dueAt,
    dueInDays,
    note: input.note ?? null,
    testClockId: clock.testClockId,
    metadata: input.metadata ?? {},
  });
  await record({ ...scope, type: 'invoice.created', data: { object: renderInvoice(row, deps.publicBaseUrl) } });
  const starts = [
    await queueWorkflowStart(tx, paymentSessionWorkflowStart(deps.taskQueue, session)),
    await queueWorkflowStart(tx, invoiceWorkflowStart(deps.taskQueue, row)),
  ];
  return { row, starts };
}

/**
 * draft -> sent in the caller's transaction: the invoice email queued, its delivery handed to the invoice workflow
 * through a signal-with-start queued in the outbox of starts (the caller starts it after commit). Used by
 * POST /v1/invoices/{id}/send and by a metered period's open invoice for the usage above the cap.
 */
export async function sendDraftInTx(
  tx: Db,
  scope: MerchantScope,
  row: repo.InvoiceRow,
  deps: { publicBaseUrl: string; taskQueue: string },
): Promise<{ row: repo.InvoiceRow; start: QueuedWorkflowStart }> {
  if (!row.customerEmail) {
    throw new InvalidStateError('The invoice has no customerEmail: it cannot be sent.', { param: 'customerEmail' });
  }
  const merchant = await sessionRepo.findMerchantDisplay(tx, scope);
  const email = invoiceEmail(row, merchant?.name ?? 'Your supplier', deps.publicBaseUrl);
  const emailId = await queueEmail(tx, { ...scope, to: row.customerEmail, ...email, kind: 'invoice' });
  // The invoice workflow delivers this email itself (so it knows when SMTP accepted it);
  // marking the delivery started keeps the email outbox sweep from starting a second sender.
  await markDeliveryStarted(tx, emailId);
  const sending = await repo.markSending(tx, row.id, emailId);
  return { row: sending, start: await queueWorkflowStart(tx, invoiceWorkflowStart(deps.taskQueue, sending, true)) };
}

export type InvoiceServiceDeps = {
  sql: Sql;
  chain: ChainConfig;
  publicBaseUrl: string;
  events: EventDispatcher;
  temporal?: Client;
  taskQueue: string;
  /** A workflow start that failed after commit (the outbox sweep retries it). */
  onStartError?: (error: unknown, start: QueuedWorkflowStart) => void;
};

export function createInvoiceService({ sql, chain, publicBaseUrl, events, temporal, taskQueue, onStartError }: InvoiceServiceDeps) {
  const starter = createWorkflowStarter(temporal, sql, onStartError ?? (() => {}));

  async function load(scope: MerchantScope, id: string, tx: Db = sql, lock = false) {
    const row = lock ? await repo.findInvoiceForUpdate(tx, scope, id) : await repo.findInvoice(tx, scope, id);
    if (!row) throw new NotFoundError(`No such invoice: ${id}.`, { param: 'id' });
    return row;
  }

  async function documentOf(row: repo.InvoiceRow): Promise<InvoiceDocument> {
    const merchant = await sessionRepo.findMerchantDisplay(sql, row);
    return invoiceDocument(row, merchant?.name ?? 'Your supplier', publicBaseUrl);
  }

  /** The invoice behind a public hosted link (its session id); undefined when there is none. */
  async function publicInvoice(sessionId: string): Promise<repo.InvoiceRow | undefined> {
    return isId('paymentSession', sessionId) ? repo.findInvoiceBySession(sql, sessionId) : undefined;
  }

  return {
    /** The PDF the merchant downloads (GET /v1/invoices/{id}/pdf). */
    async pdf(scope: MerchantScope, id: string): Promise<{ number: string; pdf: Buffer }> {
      const row = await load(scope, id);
      return { number: row.number, pdf: await renderInvoicePdf(await documentOf(row)) };
    },

    /** The customer's hosted invoice page; undefined for a link that leads to no invoice. */
    async hostedPage(sessionId: string): Promise<string | undefined> {
      const row = await publicInvoice(sessionId);
      return row && invoicePageHtml(await documentOf(row));
    },

    /** The same PDF, for the customer, behind the hosted link. */
    async hostedPdf(sessionId: string): Promise<{ number: string; pdf: Buffer } | undefined> {
      const row = await publicInvoice(sessionId);
      return row && { number: row.number, pdf: await renderInvoicePdf(await documentOf(row)) };
    },

    async create(scope: MerchantScope, input: CreateInvoiceBody): Promise<Invoice> {
      // The invoice, its session and the starts of both workflows commit together (outbox of starts):
      // when Temporal is unreachable after commit the answer is still the committed invoice, and the
      // outbox sweep starts the workflows later.
      const { row, starts } = await commitWithEvents(sql, events, (tx, record) =>
        insertInvoiceInTx(tx, record, { chain, publicBaseUrl, taskQueue }, scope, input),
      );
      await starter.startAfterCommit(starts);
      return renderInvoice(row, publicBaseUrl);
    },

    async get(scope: MerchantScope, id: string): Promise<Invoice> {
      return renderInvoice(await load(scope, id), publicBaseUrl);
    },

    /** The merchant's metadata (merged; "" removes a key), with `invoice.updated` when it changed (none when not). */
    async update(scope: MerchantScope, id: string, input: UpdateInvoiceBody): Promise<Invoice> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const rendered = async () => renderInvoice(await load(scope, id, tx), publicBaseUrl);
        const outcome = await updateMetadata(tx, 'invoices', scope, id, input.metadata, async (previous) => {
          await record({
            ...scope,
            type: 'invoice.updated',
            data: { object: await rendered(), previousAttributes: { metadata: previous } },
          });
        });
        if (!outcome) throw new NotFoundError(`No such invoice: ${id}.`, { param: 'id' });
        return rendered();
      });
    },

    async list(scope: MerchantScope, query: InvoiceListQuery): Promise<Page<Invoice>> {
      const rows = await repo.listInvoices(sql, scope, {
        ...createdRangeOf(query),
        status: query.status,
        metadata: query.metadata,
        q: query.q,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, (row) => renderInvoice(row, publicBaseUrl));
    },

    /**
     * draft -> sent: queues the email in the same transaction and hands its delivery to the
     * invoice workflow (signal-with-start), which records invoice.sent once SMTP accepted it. The
     * signal is queued in the outbox of starts in that transaction too, so a send whose signal fails
     * after commit is finished by the outbox sweep instead of staying `sent` without an email.
     */
    async send(scope: MerchantScope, id: string): Promise<Invoice> {
      const { row, start, resent } = await sql.begin(async (tx) => {
        const row = await load(scope, id, tx, true);
        if (row.status === 'sent' || row.status === 'overdue') {
          // Sending again (Stripe's "resend"): the same email once more, through the email outbox; the
          // invoice, its workflow and `invoice.sent` (the first acceptance) stay as they are.
          if (!row.customerEmail)
            throw new InvalidStateError('The invoice has no customerEmail: it cannot be sent.', { param: 'customerEmail' });
          const merchant = await sessionRepo.findMerchantDisplay(tx, scope);
          const email = invoiceEmail(row, merchant?.name ?? 'Your supplier', publicBaseUrl);
          return { row, start: undefined, resent: await queueEmail(tx, { ...scope, to: row.customerEmail, ...email, kind: 'invoice' }) };
        }
        if (row.status !== 'draft') {
          throw new InvalidStateError(`Only a draft, sent or overdue invoice can be sent; this one is ${row.status}.`, { param: 'id' });
        }
        return { ...(await sendDraftInTx(tx, scope, row, { publicBaseUrl, taskQueue })), resent: undefined };
      });
      if (start) await starter.startAfterCommit([start]);
      // A start that fails leaves the queued email to the email outbox sweep, which starts its delivery.
      if (resent && temporal) await startEmailDelivery(temporal, sql, taskQueue, resent).catch(() => false);
      return renderInvoice(row, publicBaseUrl);
    },

    /**
     * draft | sent | overdue -> void, cancelling the backing session in the same transaction.
     * Refused (session_invalid_state) for paid, void, or while a payment for it is in flight.
     * The signals that end both workflows go through the outbox of starts as well: a workflow that
     * never hears of the void would otherwise wait forever.
     */
    async void(scope: MerchantScope, id: string): Promise<Invoice> {
      const { row, starts } = await sql.begin(async (tx) => {
        const row = await load(scope, id, tx, true);
        if (row.status === 'paid')
          throw new InvalidStateError('A paid invoice cannot be voided; refund it instead (POST /v1/refunds).', { param: 'id' });
        if (row.status === 'void') throw new InvalidStateError('The invoice is already void.', { param: 'id' });
        const session = await sessionRepo.lockPaymentSession(tx, scope, row.sessionId);
        if (session && session.status !== 'open' && session.status !== 'expired' && session.status !== 'cancelled') {
          throw new InvalidStateError(`The invoice's payment is ${session.status}; it cannot be voided now.`, { param: 'id' });
        }
        await sessionRepo.markCancelled(tx, row.sessionId);
        // A start or send still pending has nothing left to do: the void signals below end both workflows.
        await discardPendingWorkflowStarts(tx, row.sessionId);
        await discardPendingWorkflowStarts(tx, row.id);
        const voided = await repo.markVoid(tx, row.id);
        const sessionStart = paymentSessionWorkflowStart(taskQueue, {
          ...scope,
          id: row.sessionId,
          expiresAt: session?.expiresAt ?? row.dueAt,
          testClockId: row.testClockId,
          status: 'cancelled',
        });
        const starts = [
          await queueWorkflowStart(tx, withSignal(sessionStart, cancelPaymentSessionSignal)),
          await queueWorkflowStart(tx, withSignal(invoiceWorkflowStart(taskQueue, voided), voidInvoiceSignal)),
        ];
        return { row: voided, starts };
      });
      await starter.startAfterCommit(starts);
      return renderInvoice(row, publicBaseUrl);
    },
  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;
