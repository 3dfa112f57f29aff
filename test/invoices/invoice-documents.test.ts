// What the customer reads: the invoice PDF (opened with pdf.js, the text found in it), the hosted
// invoice page behind hostedInvoiceUrl, and money written as money. Real app and Postgres; the
// workflows are not needed (their starts wait in the outbox).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { formatAmount, formatMoney } from '../../src/money/format.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { pdfText } from '../support/pdf.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql, { chain: { test: settingsOf(sharedChain()) }, env: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
  merchant = await seedMerchant(db.sql, 'Acme Widgets');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const auth = (key = merchant.secretKey) => ({ authorization: `Bearer ${key}` });

async function createInvoice() {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/invoices',
    headers: auth(),
    payload: {
      customerName: 'Ada <Customer>',
      customerEmail: 'ada@example.com',
      lineItems: [
        { description: 'Consulting hours', quantity: 3, unitAmount: '8000000' },
        { description: 'Setup fee', quantity: 1, unitAmount: '4000000' },
      ],
      dueInDays: 14,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('money formatting', () => {
  it('writes base units as money with at least two decimals and thousands separators', () => {
    expect(formatMoney('28000000', 'USDC')).toBe('28.00 USDC');
    expect(formatAmount('1234567890000')).toBe('1,234,567.89');
    expect(formatAmount('1')).toBe('0.000001');
    expect(formatAmount('4500250')).toBe('4.50025');
    expect(formatAmount('0')).toBe('0.00');
  });
});

describe('invoice PDF', () => {
  it('is a PDF with the number, the lines, the total, the customer and the hosted link', async () => {
    const invoice = await createInvoice();
    const response = await t.app.inject({ method: 'GET', url: `/v1/invoices/${invoice.id}/pdf`, headers: auth() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice.number}.pdf"`);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Acme Widgets');
    expect(text).toContain(`Invoice ${invoice.number}`);
    expect(text).toContain('Consulting hours');
    expect(text).toContain('Setup fee');
    expect(text).toContain('8.00 USDC');
    expect(text).toContain('24.00 USDC');
    expect(text).toContain('28.00 USDC');
    expect(text).not.toContain('28.000000');
    expect(text).toContain('ada@example.com');
    expect(text).toContain(`Due: ${invoice.dueAt.slice(0, 10)}`);
    expect(text).toContain('Status: draft');
    expect(text).toContain(invoice.hostedInvoiceUrl);
  });

  it('needs invoices_read and stays in its merchant and mode', async () => {
    const invoice = await createInvoice();
    const writeOnly = await merchant.keyWithScopes(['invoices_write']);
    const refused = await t.app.inject({ method: 'GET', url: `/v1/invoices/${invoice.id}/pdf`, headers: auth(writeOnly) });
    expect(refused.statusCode).toBe(403);
    const reader = await merchant.keyWithScopes(['invoices_read']);
    expect((await t.app.inject({ method: 'GET', url: `/v1/invoices/${invoice.id}/pdf`, headers: auth(reader) })).statusCode).toBe(200);

    const other = await seedMerchant(db.sql, 'Other');
    const foreign = await t.app.inject({ method: 'GET', url: `/v1/invoices/${invoice.id}/pdf`, headers: auth(other.secretKey) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('not_found');
    const live = await t.app.inject({ method: 'GET', url: `/v1/invoices/${invoice.id}/pdf`, headers: auth(merchant.liveSecretKey) });
    expect(live.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: '/v1/invoices/not-an-id/pdf', headers: auth() });
    // Path ids are opaque: an unknown one is not_found, as for GET /v1/invoices/{id}.
    expect(bad.statusCode).toBe(404);
    expect(bad.json().error).toMatchObject({ code: 'not_found', param: 'id' });
  });

  it('is declared as application/pdf in the OpenAPI document with the read scope', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = doc.paths['/v1/invoices/{id}/pdf'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['application/pdf']);
    expect(operation['x-required-scope']).toBe('invoices_read');
    expect(doc.components.schemas.Invoice.required).toContain('hostedInvoiceUrl');
  });
});

describe('hosted invoice page', () => {
  it('shows number, lines, total, due date, status and a Pay button to the checkout, publicly', async () => {
    const invoice = await createInvoice();
    expect(invoice.hostedInvoiceUrl).toBe(`https://pay.example.test/checkout/${invoice.sessionId}/invoice`);
    const path = new URL(invoice.hostedInvoiceUrl).pathname;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const html = page.body;
    expect(html).toContain(`Invoice ${invoice.number}`);
    expect(html).toContain('Acme Widgets');
    expect(html).toContain('Consulting hours');
    expect(html).toContain('28.00 USDC');
    expect(html).toContain(invoice.dueAt.slice(0, 10));
    expect(html).toContain('data-status="draft"');
    expect(html).toContain(`href="${invoice.payUrl}"`);
    expect(html).toContain('Ada &lt;Customer&gt;');
    expect(html).not.toContain('Ada <Customer>');

    const pdf = await t.app.inject({ method: 'GET', url: `${path}.pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(pdf.rawPayload)).toContain('28.00 USDC');
  });

  it('drops the Pay button once the invoice is void', async () => {
    const invoice = await createInvoice();
    const voided = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/void`, headers: auth() });
    expect(voided.statusCode, voided.body).toBe(200);
    const html = (await t.app.inject({ method: 'GET', url: new URL(invoice.hostedInvoiceUrl).pathname })).body;
    expect(html).toContain('data-status="void"');
    expect(html).not.toContain(`href="${invoice.payUrl}"`);
  });

  it('answers 404 for a link that leads to no invoice', async () => {
    for (const id of ['ps_00000000000000000000000000', 'nonsense', 'inv_00000000000000000000000000']) {
      const page = await t.app.inject({ method: 'GET', url: `/checkout/${id}/invoice` });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Invoice not found');
      expect((await t.app.inject({ method: 'GET', url: `/checkout/${id}/invoice.pdf` })).statusCode).toBe(404);
    }
  });
});
