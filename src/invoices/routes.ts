// HTTP routes of invoices.
import type { FastifyZodInstance } from '../http/types.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { createInvoiceBody, invoice, invoiceList, invoiceListQuery, invoiceParams } from './schemas.js';
import type { InvoiceService } from './service.js';

export function registerInvoiceRoutes(app: FastifyZodInstance, invoices: InvoiceService): void {
  app.route({
    method: 'POST',
    url: '/v1/invoices',
    config: { access: access.scope('invoices_write') },
    schema: { tags: ['Invoices'], summary: 'Create an invoice (draft) with its backing payment session', body: createInvoiceBody, response: { 200: invoice } },
    handler: (request) => invoices.create(requestScope(request), request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/invoices/:id/send',
    config: { access: access.scope('invoices_write') },
    schema: {
      tags: ['Invoices'],
      summary: 'Email the invoice to the customer',
      description: 'draft -> sent. 403 session_invalid_state when customerEmail is not set or the invoice is not a draft. invoice.sent fires once the SMTP server accepted the email.',
      params: invoiceParams,
      response: { 200: invoice },
    },
    handler: (request) => invoices.send(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/invoices/:id/void',
    config: { access: access.scope('invoices_write') },
    schema: {
      tags: ['Invoices'],
      summary: 'Void the invoice and cancel its payment session',
      description: 'From draft, sent or overdue. 403 session_invalid_state for a paid (refund instead) or void invoice, or while its payment is processing.',
      params: invoiceParams,
      response: { 200: invoice },
    },
    handler: (request) => invoices.void(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/invoices/:id',
    config: { access: access.scope('invoices_read') },
    schema: { tags: ['Invoices'], summary: 'Retrieve an invoice', params: invoiceParams, response: { 200: invoice } },
    handler: (request) => invoices.get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/invoices',
    config: { access: access.scope('invoices_read') },
    schema: { tags: ['Invoices'], summary: 'List invoices', querystring: invoiceListQuery, response: { 200: invoiceList } },
    handler: (request) => invoices.list(requestScope(request), request.query),
  });
}
