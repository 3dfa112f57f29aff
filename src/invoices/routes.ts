// HTTP routes of invoices.
import type { FastifyReply } from 'fastify';
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { CHECKOUT_SECURITY_HEADERS } from '../checkout/page.js';
import { checkoutPageParams } from '../checkout/schemas.js';
import { access } from '../http/access.js';
import { foldMetadataQuery } from '../http/metadata.js';
import { requestScope } from '../http/principal.js';
import { createInvoiceBody, invoice, invoiceList, invoiceListQuery, invoiceParams, updateInvoiceBody } from './schemas.js';
import { invoiceNotFoundHtml } from './page.js';
import type { InvoiceService } from './service.js';

function sendPdf(reply: FastifyReply, number: string, pdf: Buffer) {
  return reply
    .header('content-disposition', `attachment; filename="invoice-${number}.pdf"`)
    .header('cache-control', 'no-store')
    .type('application/pdf')
    .send(pdf);
}

export function registerInvoiceRoutes(app: FastifyZodInstance, invoices: ServiceOn<InvoiceService>): void {
  app.route({
    method: 'POST',
    url: '/v1/invoices',
    config: { access: access.scope('invoices_write') },
    schema: {
      tags: ['Invoices'],
      summary: 'Create an invoice (draft) with its backing payment session',
      body: createInvoiceBody,
      response: { 200: invoice },
    },
    handler: (request) => invoices(request.db).create(requestScope(request), request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/invoices/:id',
    config: { access: access.scope('invoices_write') },
    schema: {
      tags: ['Invoices'],
      summary: 'Update an invoice',
      operationId: 'updateInvoice',
      description:
        'Only `metadata` may change, in any status (merged; a key sent as "" is removed): what the invoice asks for is fixed once created. Sends `invoice.updated` with `previousAttributes.metadata` when the pairs changed (nothing when not). An unknown id, or another merchant’s or mode’s, is `not_found`.',
      params: invoiceParams,
      body: updateInvoiceBody,
      response: { 200: invoice },
    },
    handler: (request) => invoices(request.db).update(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/invoices/:id/send',
    config: { access: access.scope('invoices_write') },
    schema: {
      tags: ['Invoices'],
      summary: 'Email the invoice to the customer (again)',
      description:
        'draft -> sent; invoice.sent fires once the SMTP server accepted the email. On a sent or overdue invoice it emails the customer again (a reminder with the same links) and changes nothing else: no status change, no second invoice.sent. 403 session_invalid_state when customerEmail is not set or the invoice is paid or void.',
      params: invoiceParams,
      response: { 200: invoice },
    },
    handler: (request) => invoices(request.db).send(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/invoices/:id/void',
    config: { access: access.scope('invoices_write') },
    schema: {
      tags: ['Invoices'],
      summary: 'Void the invoice and cancel its payment session',
      description:
        'From draft, sent or overdue. 403 session_invalid_state for a paid (refund instead) or void invoice, or while its payment is processing.',
      params: invoiceParams,
      response: { 200: invoice },
    },
    handler: (request) => invoices(request.db).void(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/invoices/:id',
    config: { access: access.scope('invoices_read') },
    schema: { tags: ['Invoices'], summary: 'Retrieve an invoice', params: invoiceParams, response: { 200: invoice } },
    handler: (request) => invoices(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/invoices/:id/pdf',
    config: {
      access: access.scope('invoices_read'),
      fileResponse: { contentType: 'application/pdf', description: 'The invoice as a PDF document (attachment invoice-<number>.pdf).' },
    },
    schema: {
      tags: ['Invoices'],
      summary: 'Download an invoice as a PDF',
      description:
        'Generated on request from the invoice as it is now: merchant name, number, status, issue and due dates, customer, each line (description, quantity, unit price, amount), total and the hosted invoice link. Amounts are written as money (`28.00 USDC`).',
      params: invoiceParams,
    },
    handler: async (request, reply) => {
      const { number, pdf } = await invoices(request.db).pdf(requestScope(request), request.params.id);
      return sendPdf(reply, number, pdf);
    },
  });

  app.route({
    method: 'GET',
    url: '/v1/invoices',
    config: { access: access.scope('invoices_read') },
    preValidation: foldMetadataQuery,
    schema: { tags: ['Invoices'], summary: 'List invoices', querystring: invoiceListQuery, response: { 200: invoiceList } },
    handler: (request) => invoices(request.db).list(requestScope(request), request.query),
  });

  // The customer's side, public under the hosted checkout link (hidden from /openapi.json like the checkout pages).
  app.route({
    method: 'GET',
    url: '/checkout/:id/invoice',
    config: { access: access.public() },
    schema: { hide: true, tags: ['Invoices'], summary: 'The hosted invoice page', params: checkoutPageParams },
    handler: async (request, reply) => {
      const html = await invoices(request.db).hostedPage(request.params.id);
      return reply
        .code(html ? 200 : 404)
        .headers(CHECKOUT_SECURITY_HEADERS)
        .type('text/html; charset=utf-8')
        .send(html ?? invoiceNotFoundHtml());
    },
  });

  app.route({
    method: 'GET',
    url: '/checkout/:id/invoice.pdf',
    config: { access: access.public() },
    schema: { hide: true, tags: ['Invoices'], summary: 'The hosted invoice as a PDF', params: checkoutPageParams },
    handler: async (request, reply) => {
      const found = await invoices(request.db).hostedPdf(request.params.id);
      if (!found)
        return reply.code(404).headers(CHECKOUT_SECURITY_HEADERS).type('text/plain; charset=utf-8').send('No invoice behind this link.');
      return sendPdf(reply.headers(CHECKOUT_SECURITY_HEADERS), found.number, found.pdf);
    },
  });
}
