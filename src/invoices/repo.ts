// SQL for invoices and their number counters.
import type { Db } from '../db/client.js';
import { createdRangeSql, lowerPrefixPattern, type CreatedRange } from '../http/list-filters.js';
import type { MerchantScope } from '../http/principal.js';
import { metadataSql } from '../http/metadata.js';
import type { InvoiceStatus, LineItem } from './schemas.js';

export type InvoiceRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  number: string;
  customerName: string | null;
  customerEmail: string | null;
  /** The merchant's customer it was created for (null: none named). */
  customerId: string | null;
  currency: string;
  lineItems: LineItem[];
  subtotal: string;
  total: string;
  status: InvoiceStatus;
  sessionId: string;
  dueAt: Date;
  dueInDays: number;
  note: string | null;
  emailId: string | null;
  sentAt: Date | null;
  paidAt: Date | null;
  voidedAt: Date | null;
  /** The test clock whose time its due date follows (issue #30); null: wall time. */
  testClockId: string | null;
  metadata: Record<string, string>;
  createdAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, number, customer_name as "customerName", customer_email as "customerEmail", customer_id as "customerId",
     currency, line_items as "lineItems", subtotal::text as subtotal, total::text as total, status, session_id as "sessionId",
     due_at as "dueAt", due_in_days as "dueInDays", note, email_id as "emailId", sent_at as "sentAt", paid_at as "paidAt",
     voided_at as "voidedAt", test_clock_id as "testClockId", metadata, created_at as "createdAt"`;

/**
 * The next number of (merchant, mode, year), in the caller's transaction: the counter row stays
 * locked until commit, so concurrent creates queue here and a rollback gives the number back.
 */
export async function nextInvoiceNumber(db: Db, scope: MerchantScope, year: number): Promise<number> {
  const [row] = await db<{ lastNumber: number }[]>`
    insert into invoice_number_counters (merchant_id, livemode, year, last_number)
    values (${scope.merchantId}, ${scope.livemode}, ${year}, 1)
    on conflict (merchant_id, livemode, year) do update set last_number = invoice_number_counters.last_number + 1
    returning last_number as "lastNumber"`;
  return row!.lastNumber;
}

export async function insertInvoice(
  db: Db,
  inv: Omit<InvoiceRow, 'status' | 'emailId' | 'sentAt' | 'paidAt' | 'voidedAt' | 'createdAt'>,
): Promise<InvoiceRow> {
  const [row] = await db<InvoiceRow[]>`
    insert into invoices (id, merchant_id, livemode, number, customer_name, customer_email, customer_id, currency, line_items, subtotal, total,
                          status, session_id, due_at, due_in_days, note, test_clock_id, metadata)
    values (${inv.id}, ${inv.merchantId}, ${inv.livemode}, ${inv.number}, ${inv.customerName}, ${inv.customerEmail}, ${inv.customerId}, ${inv.currency},
            ${db.json(inv.lineItems as never)}, ${inv.subtotal}, ${inv.total}, 'draft', ${inv.sessionId}, ${inv.dueAt},
            ${inv.dueInDays}, ${inv.note}, ${inv.testClockId}, ${db.json(inv.metadata)})
    returning ${columns(db)}`;
  return row!;
}

export async function findInvoice(db: Db, scope: MerchantScope, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db<InvoiceRow[]>`
    select ${columns(db)} from invoices where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

export async function findInvoiceForUpdate(db: Db, scope: MerchantScope, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db<InvoiceRow[]>`
    select ${columns(db)} from invoices where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
    for update`;
  return row;
}

export async function findInvoiceById(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db<InvoiceRow[]>`select ${columns(db)} from invoices where id = ${id}`;
  return row;
}

export async function findInvoiceBySession(db: Db, sessionId: string): Promise<InvoiceRow | undefined> {
  const [row] = await db<InvoiceRow[]>`select ${columns(db)} from invoices where session_id = ${sessionId}`;
  return row;
}

export async function listInvoices(
  db: Db,
  scope: MerchantScope,
  page: CreatedRange & { before?: string; limit: number; status?: InvoiceStatus; q?: string; metadata?: Record<string, string> },
): Promise<InvoiceRow[]> {
  return db<InvoiceRow[]>`
    select ${columns(db)} from invoices
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.status ? db`and status = ${page.status}` : db``}
      ${metadataSql(db, 'metadata', page.metadata)}
      ${createdRangeSql(db, 'created_at', page)}
      ${page.q ? searchInvoices(db, scope, page.q) : db``}
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

/** An invoice matching `q`: id, number, customer email prefix, or the transaction hash or payer of its session. */
function searchInvoices(db: Db, scope: MerchantScope, q: string) {
  return db`and (id = ${q} or lower(number) = ${q.toLowerCase()} or lower(customer_email) like ${lowerPrefixPattern(q)}
    or session_id in (select p.id from payment_sessions p
      where p.merchant_id = ${scope.merchantId} and p.livemode = ${scope.livemode}
        and (p.transaction_hash = ${q} or lower(p.payer) = ${q.toLowerCase()})))`;
}

/** Invoices that are not final (draft, sent, overdue), in id order after `afterId`: the daily repair's pages. */
export async function listOpenInvoices(db: Db, afterId: string | null, limit: number): Promise<InvoiceRow[]> {
  return db<InvoiceRow[]>`
    select ${columns(db)} from invoices
    where status in ('draft', 'sent', 'overdue') ${afterId ? db`and id > ${afterId}` : db``}
    order by id limit ${limit}`;
}

export async function markSending(db: Db, id: string, emailId: string): Promise<InvoiceRow> {
  const [row] = await db<InvoiceRow[]>`
    update invoices set status = 'sent', email_id = ${emailId}, updated_at = now() where id = ${id} returning ${columns(db)}`;
  return row!;
}

/** draft -> sent without an email (no address to send to): payable and open, overdue after its due date. */
export async function markOpenWithoutEmail(db: Db, id: string): Promise<InvoiceRow> {
  const [row] = await db<InvoiceRow[]>`
    update invoices set status = 'sent', updated_at = now() where id = ${id} and status = 'draft' returning ${columns(db)}`;
  return row!;
}

/** Records the SMTP acceptance of the invoice email once; true when this call recorded it. */
export async function markEmailDelivered(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db<InvoiceRow[]>`
    update invoices set sent_at = now(), updated_at = now() where id = ${id} and sent_at is null returning ${columns(db)}`;
  return row;
}

/** sent -> overdue; undefined when the invoice is not sent (paid, void, draft, already overdue). */
export async function markOverdue(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db<InvoiceRow[]>`
    update invoices set status = 'overdue', updated_at = now() where id = ${id} and status = 'sent' returning ${columns(db)}`;
  return row;
}

/** draft | sent | overdue -> paid; undefined when already paid or void. */
export async function markPaid(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db<InvoiceRow[]>`
    update invoices set status = 'paid', paid_at = now(), updated_at = now()
    where id = ${id} and status in ('draft', 'sent', 'overdue') returning ${columns(db)}`;
  return row;
}

export async function markVoid(db: Db, id: string): Promise<InvoiceRow> {
  const [row] = await db<InvoiceRow[]>`
    update invoices set status = 'void', voided_at = now(), updated_at = now() where id = ${id} returning ${columns(db)}`;
  return row!;
}
