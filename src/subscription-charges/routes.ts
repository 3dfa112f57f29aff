// HTTP routes of subscription charges (read-only; the scheduler creates them).
import type { FastifyZodInstance } from '../http/types.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { chargeList, chargeListQuery, chargeParams, subscriptionCharge } from './schemas.js';
import type { ChargeService } from './service.js';

export function registerSubscriptionChargeRoutes(app: FastifyZodInstance, charges: ChargeService): void {
  app.route({
    method: 'GET',
    url: '/v1/subscription-charges/:id',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: ['Subscription charges'],
      summary: 'Retrieve a subscription charge',
      params: chargeParams,
      response: { 200: subscriptionCharge },
    },
    handler: (request) => charges.get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/subscription-charges/:id/receipt',
    config: {
      access: access.scope('subscriptions_read'),
      fileResponse: { contentType: 'application/pdf', description: 'The receipt as a PDF document (attachment receipt-<charge id>.pdf).' },
    },
    schema: {
      tags: ['Subscription charges'],
      summary: 'Download the receipt of a subscription charge as a PDF',
      description:
        "For a succeeded charge: merchant name, the period, the payment date, the charge's `lines` (the plan's amount, then `Discount (<coupon name>, 20% off)` with its negative amount) and the total paid, with the transaction. 403 session_invalid_state for a charge that has not succeeded.",
      params: chargeParams,
    },
    handler: async (request, reply) => {
      const pdf = await charges.receiptPdf(requestScope(request), request.params.id);
      return reply
        .header('content-disposition', `attachment; filename="receipt-${request.params.id}.pdf"`)
        .header('cache-control', 'no-store')
        .type('application/pdf')
        .send(pdf);
    },
  });

  app.route({
    method: 'GET',
    url: '/v1/subscription-charges',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: ['Subscription charges'],
      summary: 'List subscription charges',
      querystring: chargeListQuery,
      response: { 200: chargeList },
    },
    handler: (request) => charges.list(requestScope(request), request.query),
  });
}
