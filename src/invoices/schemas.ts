// Request and response shapes of invoices (spec: Invoice). Fields the spec
// leaves open are documented here and appear in /openapi.json.
import { z } from 'zod';
import { amountString, idParam, pathId, timestamp, emailAddress } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { createdRangeQuery, searchQuery } from '../http/list-filters.js';
import { testClockRef } from '../payment-sessions/schemas.js';
import { metadataField, metadataObject, metadataQuery, metadataUpdate } from '../http/metadata.js';

export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const MAX_LINE_ITEMS = 100;

export const lineItem = z
  .object({
    description: z.string().trim().min(1).max(500),
    quantity: z.number().int().min(1).max(1_000_000),
    unitAmount: amountString.describe('Price of one unit in USDC base units (6 decimals).'),
  })
  .strict()
  .meta({ id: 'InvoiceLineItem' });

export const createInvoiceBody = z
  .object({
    customerName: z.string().trim().min(1).max(200).optional(),
    customerEmail: emailAddress(320).optional().describe('Required before the invoice can be sent (POST /v1/invoices/{id}/send).'),
    customerId: idParam('customer')
      .optional()
      .describe(
        "The merchant's customer (`cus_...`) the invoice is for: the customer portal lists it for them. Without `customerEmail`, the customer's email is used. Another merchant's or mode's customer is `invalid_request`.",
      ),
    currency: z.enum(['USDC']).default('USDC'),
    lineItems: z.array(lineItem).min(1).max(MAX_LINE_ITEMS).describe(`1 to ${MAX_LINE_ITEMS} line items.`),
    note: z.string().max(2000).optional(),
    dueInDays: z
      .number()
      .int()
      .min(0)
      .max(365)
      .default(30)
      .describe("Days from creation until dueAt (0 to 365, default 30; from the test clock's time when `testClock` is given)."),
    testClock: testClockRef.optional(),
    metadata: metadataField.optional(),
  })
  .strict();

export const invoice = z
  .object({
    id: z.string(),
    object: z.literal('invoice'),
    number: z
      .string()
      .describe('`<YYYY>-<NNNN>`: per merchant, mode and calendar year (UTC) of creation, consecutive without gaps from 0001.'),
    customerName: z.string().nullable(),
    customerEmail: z.string().nullable(),
    customerId: z.string().nullable().describe('The customer the invoice was created for (`customerId` at creation), else null.'),
    currency: z.string(),
    lineItems: z.array(lineItem),
    subtotal: z.string().describe('Sum of quantity x unitAmount over the line items (integer arithmetic).'),
    total: z.string().describe('Amount due; equals subtotal (no taxes or discounts yet).'),
    status: z
      .enum(INVOICE_STATUSES)
      .describe(
        '`draft` -> `sent` (send) -> `paid` (backing session confirmed) or `overdue` (dueAt passed unpaid; overdue can still be paid). `void` from draft, sent or overdue; never from paid.',
      ),
    sessionId: z.string().describe('The backing payment session; its checkoutUrl is the pay link.'),
    payUrl: z.string().describe('Hosted checkout link of the backing session (sent in the email).'),
    hostedInvoiceUrl: z
      .string()
      .describe(
        'Public page of the invoice as the customer sees it (number, lines, total, due date, status, a Pay button to payUrl, a PDF download). Unguessable, under the backing session: anyone with the link can read the invoice, as with payUrl. Sent in the email.',
      ),
    dueAt: timestamp,
    dueInDays: z.number().int(),
    note: z.string().nullable(),
    sentAt: timestamp.nullable().describe('When the SMTP server accepted the invoice email (invoice.sent).'),
    paidAt: timestamp.nullable(),
    voidedAt: timestamp.nullable(),
    testClock: z.string().nullable().describe('The test clock whose time `dueAt` follows (test mode); null: wall time.'),
    metadata: metadataObject,
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'Invoice' });

export const invoiceParams = z.object({ id: pathId('invoice') });
export const invoiceList = listOf(invoice);
export const invoiceListQuery = listQueryOf('invoice').extend({
  status: z.enum(INVOICE_STATUSES).optional().describe('Only invoices in this status.'),
  metadata: metadataQuery,
  ...createdRangeQuery,
  q: searchQuery(
    'the invoice id, the invoice number (any letter case), the hash of the transaction that paid it (exact), the payer wallet ' +
      "address (any letter case), or the start of the customer's email (case-insensitive prefix)",
  ),
});

export type LineItem = z.infer<typeof lineItem>;
export type CreateInvoiceBody = z.infer<typeof createInvoiceBody>;
export type Invoice = z.infer<typeof invoice>;
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

export const updateInvoiceBody = z
  .object({ metadata: metadataUpdate.optional() })
  .strict()
  .meta({ examples: [{ metadata: { order: '1234', note: '' } }] });
export type UpdateInvoiceBody = z.infer<typeof updateInvoiceBody>;
