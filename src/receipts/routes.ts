// Receipts (issue 40, item 5): the merchant's switches per kind and mode, and the customer's page behind
// the emailed link. The switches are read like the merchant (any secret key, the dashboard) and changed with
// `payment_sessions_write`, like the accepted chains: a checkout setting a key that takes payments may set.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { CHECKOUT_SECURITY_HEADERS } from '../checkout/page.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import type { FastifyZodInstance } from '../http/types.js';
import { receiptNotFoundHtml } from './page.js';
import { receiptSettings, receiptSettingsBody } from './schemas.js';
import type { ReceiptPageService } from './service.js';
import type { ReceiptSettingsService } from './settings.js';

const tags = ['Merchant account'];

export function registerReceiptSettingsRoutes(app: FastifyZodInstance, settings: ServiceOn<ReceiptSettingsService>): void {
  app.route({
    method: 'GET',
    url: '/v1/merchants/me/receipt-settings',
    config: { access: access.merchant() },
    schema: {
      operationId: 'getReceiptSettings',
      tags,
      summary: 'Which receipts are emailed to customers',
      description:
        "For the request's mode: a switch per kind (payment, subscription charge, refund, paid invoice). A receipt goes only to an email the merchant or the customer gave for this merchant and mode (the invoice's customer email, the subscription's customer, the paying wallet's customer); docs/receipts.md.",
      response: { 200: receiptSettings },
    },
    handler: (request) => settings(request.db).get(requestScope(request)),
  });

  app.route({
    method: 'PUT',
    url: '/v1/merchants/me/receipt-settings',
    config: { access: access.scope('payment_sessions_write') },
    schema: {
      operationId: 'setReceiptSettings',
      tags,
      summary: 'Turn receipt emails on or off per kind',
      description:
        "Changes the named switches of the request's mode (the other mode's are untouched); switches not named keep their value. A body naming none, an unknown field or a value that is not a boolean is `invalid_request`. Money events processed after the change follow it; a receipt already queued is sent.",
      body: receiptSettingsBody,
      response: { 200: receiptSettings },
    },
    handler: (request) => settings(request.db).set(requestScope(request), request.body),
  });
}

// The token is checked by the service, not the schema: a malformed one is the same 404 page as an unknown one.
const receiptParams = z.object({ token: z.string() });

export function registerReceiptPageRoutes(app: FastifyZodInstance, receipts: ReceiptPageService): void {
  const notFound = (reply: FastifyReply) =>
    reply.code(404).headers(CHECKOUT_SECURITY_HEADERS).type('text/html; charset=utf-8').send(receiptNotFoundHtml());

  app.route({
    method: 'GET',
    url: '/receipts/:token',
    config: { access: access.public() },
    schema: { hide: true, tags: ['Receipts'], summary: 'The receipt page behind an emailed link', params: receiptParams },
    handler: async (request, reply) => {
      const html = await receipts.page(request.params.token);
      if (!html) return notFound(reply);
      return reply.headers(CHECKOUT_SECURITY_HEADERS).type('text/html; charset=utf-8').send(html);
    },
  });

  app.route({
    method: 'GET',
    url: '/receipts/:token/receipt.pdf',
    config: { access: access.public() },
    schema: {
      hide: true,
      tags: ['Receipts'],
      summary: "A subscription charge's receipt PDF behind its emailed link",
      params: receiptParams,
    },
    handler: async (request, reply) => {
      const found = await receipts.chargePdf(request.params.token);
      if (!found) return notFound(reply);
      return reply
        .headers(CHECKOUT_SECURITY_HEADERS)
        .header('content-disposition', `attachment; filename="receipt-${found.chargeId}.pdf"`)
        .type('application/pdf')
        .send(found.pdf);
    },
  });
}
