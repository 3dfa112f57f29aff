// The hosted checkout on the API host: the page, its script, and the same-origin
// pay route. All public (the customer has no key); the page routes are hidden
// from /openapi.json, the pay route is documented.
import type { FastifyZodInstance } from '../http/types.js';
import { withSafeChainErrors } from '../chain/clients.js';
import { access } from '../http/access.js';
import { CHECKOUT_SCRIPT, CHECKOUT_SCRIPT_PATH, CHECKOUT_SECURITY_HEADERS } from './page.js';
import { checkoutPageParams, checkoutPayBody, checkoutPayParams, checkoutPayment } from './schemas.js';
import type { CheckoutService } from './service.js';

export function registerCheckoutRoutes(app: FastifyZodInstance, checkout: CheckoutService): void {
  app.route({
    method: 'GET',
    url: CHECKOUT_SCRIPT_PATH,
    config: { access: access.public() },
    schema: { hide: true, tags: ['Checkout'], summary: 'The hosted checkout script' },
    handler: (_request, reply) =>
      reply.headers(CHECKOUT_SECURITY_HEADERS).header('cache-control', 'public, max-age=300').type('text/javascript; charset=utf-8').send(CHECKOUT_SCRIPT),
  });

  app.route({
    method: 'GET',
    url: '/checkout/:id',
    config: { access: access.public() },
    schema: { hide: true, tags: ['Checkout'], summary: 'The hosted checkout page of a payment session', params: checkoutPageParams },
    handler: async (request, reply) => {
      const page = await checkout.page(request.params.id);
      return reply.code(page.status).headers(CHECKOUT_SECURITY_HEADERS).type('text/html; charset=utf-8').send(page.html);
    },
  });

  app.route({
    method: 'POST',
    url: '/checkout/:id/pay',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: "Pay a payment session with the customer's signed EIP-3009 authorization (used by the hosted checkout page)",
      description:
        "Public and same-origin: the hosted checkout page posts the authorization the customer's wallet signed. The server relays it for the session's merchant and mode (as POST /v1/relay/payments with paymentSessionId), so no key ever reaches the browser. The relay Idempotency-Key is `checkout_<sessionId>_<nonce>`: posting the same authorization again returns the same submission. Refusals are the relay's (invalid_request with the offending param, session_invalid_state when the session is not open).",
      params: checkoutPayParams,
      body: checkoutPayBody,
      response: { 200: checkoutPayment },
    },
    handler: async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      return withSafeChainErrors(() => checkout.pay(request.params.id, request.body));
    },
  });
}
