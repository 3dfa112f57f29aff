// The hosted checkout on the API host: the page, its script, and the same-origin
// pay route. All public (the customer has no key); the page routes are hidden
// from /openapi.json, the pay route is documented.
import type { FastifyZodInstance } from '../http/types.js';
import { withSafeChainErrors } from '../chain/clients.js';
import { access } from '../http/access.js';
import { registerHostedScriptRoute } from '../hosted-pages/scripts.js';
import { CHECKOUT_SCRIPT_PATH, CHECKOUT_SECURITY_HEADERS } from './page.js';
import {
  checkoutEnrolBody,
  checkoutRenewal,
  checkoutRenewalBody,
  checkoutRenewalOffer,
  checkoutRenewalPageParams,
  checkoutRenewalPageQuery,
  checkoutRenewalParams,
  checkoutRenewalQuery,
  checkoutRenewalStatusParams,
  checkoutEnrolment,
  checkoutEnrolmentOffer,
  checkoutEnrolmentParams,
  checkoutEnrolmentQuery,
  checkoutPageParams,
  checkoutPayBody,
  checkoutCustomerEmail,
  checkoutCustomerEmailBody,
  depositQrQuery,
  checkoutPayParams,
  checkoutPayment,
  checkoutPaymentParams,
  checkoutPlanPageParams,
  checkoutPlanParams,
  checkoutReauthorisation,
  checkoutReauthorisationBody,
  checkoutReauthorisationOffer,
  checkoutReauthorisationPageParams,
  checkoutReauthorisationPageQuery,
  checkoutReauthorisationParams,
  checkoutReauthorisationQuery,
  checkoutReauthorisationStatus,
  checkoutWalletChangeParams,
} from './schemas.js';
import type { CheckoutService } from './service.js';

export function registerCheckoutRoutes(
  app: FastifyZodInstance,
  checkout: CheckoutService,
  assets: { distDir?: string | undefined } = {},
): void {
  registerHostedScriptRoute(app, {
    url: CHECKOUT_SCRIPT_PATH,
    name: 'checkout.js',
    headers: CHECKOUT_SECURITY_HEADERS,
    tag: 'Checkout',
    summary: 'The hosted checkout script',
    distDir: assets.distDir,
  });

  app.route({
    method: 'GET',
    url: '/checkout/:id/deposit-qr.svg',
    config: { access: access.public() },
    schema: {
      hide: true,
      tags: ['Checkout'],
      summary: "The QR code of a session's EIP-681 transfer to its deposit address",
      params: checkoutPageParams,
      querystring: depositQrQuery,
    },
    handler: async (request, reply) => {
      const svg = await checkout.depositQr(request.params.id, request.query.chainId);
      if (!svg)
        return reply.code(404).headers(CHECKOUT_SECURITY_HEADERS).type('text/plain; charset=utf-8').send('No QR code for this session.');
      return reply.headers(CHECKOUT_SECURITY_HEADERS).type('image/svg+xml').send(svg);
    },
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

  app.route({
    method: 'POST',
    url: '/checkout/:id/customer-email',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: 'Leave an email on a payment session (used by the hosted checkout page)',
      description:
        "Public and same-origin, like the page: the optional email field of the hosted payment page, for a payment by wallet or by transfer. Accepted while the session is open or processing (else `session_invalid_state`); the last one given is kept. It is a label, never verified: when the session completes, the paying wallet's customer (found or created by wallet) takes it only if it has no email yet.",
      params: checkoutPayParams,
      body: checkoutCustomerEmailBody,
      response: { 200: checkoutCustomerEmail },
    },
    handler: async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      return checkout.setCustomerEmail(request.params.id, request.body.email);
    },
  });

  app.route({
    method: 'GET',
    url: '/checkout/:id/payments/:nonce',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: 'Status of a payment submitted from the hosted checkout page',
      description:
        "Public, like the page. The relay submission of the authorization with this nonce for this session (posted to POST /checkout/{id}/pay): when it failed, `failureCode` names the token's refusal (e.g. `token_paused`, `payer_blacklisted`) so that the page can tell the payer why and what to do next. 404 when no authorization with this nonce was posted for the session.",
      params: checkoutPaymentParams,
      response: { 200: checkoutPayment },
    },
    handler: async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      return checkout.paymentStatus(request.params.id, request.params.nonce);
    },
  });

  // Subscription enrolment for a plan: the same page frame and script.
  app.route({
    method: 'GET',
    url: '/checkout/plans/:planId',
    config: { access: access.public() },
    schema: { hide: true, tags: ['Checkout'], summary: 'The hosted enrolment page of a subscription plan', params: checkoutPlanPageParams },
    handler: async (request, reply) => {
      const page = await checkout.planPage(request.params.planId);
      return reply.code(page.status).headers(CHECKOUT_SECURITY_HEADERS).type('text/html; charset=utf-8').send(page.html);
    },
  });

  app.route({
    method: 'GET',
    url: '/checkout/plans/:planId/enrolment',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: 'What the hosted enrolment page asks the subscriber to sign for a plan',
      description:
        "Public. The Enrolment terms (the plan's amount and on-chain period, the merchant's payout address, the service's operator), the SubscriptionManager and its EIP-712 domain, and the permit allowance to ask for, on the chain `chainId` names (one of the plan's; default its first). `chains` lists every chain the plan is offered on. A chain the plan is not offered on is `invalid_request` with `param: chainId`. With `promotionCode`, `discount` previews the code on this plan (refused as at enrolment, param `promotionCode`). With `wallet`, a test-mode wallet attached to a test clock with a chain of its own is offered that chain only (the page asks again once the wallet is connected); the enrolment of such a wallet is sent there.",
      params: checkoutPlanParams,
      querystring: checkoutEnrolmentQuery,
      response: { 200: checkoutEnrolmentOffer },
    },
    handler: (request) =>
      withSafeChainErrors(() =>
        checkout.enrolmentOffer(request.params.planId, request.query.chainId, request.query.promotionCode, request.query.wallet),
      ),
  });

  app.route({
    method: 'POST',
    url: '/checkout/plans/:planId/enrol',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: "Enrol in a plan with the subscriber's signed permit and Enrolment (used by the hosted enrolment page)",
      description:
        "Public and same-origin. `chainId` is the chain the subscriber chose (one the plan is offered on; default its first); the terms must be the plan's there (as GET /checkout/plans/{planId}/enrolment?chainId= offers them; trialEnd no later than offered), and the permit and enrolment signed for that chain; the server relays the permit and enrolment for the plan's merchant and mode (as POST /v1/relay/subscriptions) under the Idempotency-Key `checkout_<planId>_<enrolment nonce>`. The optional `customerEmail` is kept on the wallet's customer once the relay accepted the signatures; it is where the renewal email goes.",
      params: checkoutPlanParams,
      body: checkoutEnrolBody,
      response: { 200: checkoutEnrolment },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return withSafeChainErrors(() => checkout.enrol(request.params.planId, request.body));
    },
  });

  app.route({
    method: 'GET',
    url: '/checkout/plans/:planId/enrolments/:nonce',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: 'On-chain status of an enrolment submitted from the hosted page',
      params: checkoutEnrolmentParams,
      response: { 200: checkoutEnrolment },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return checkout.enrolmentStatus(request.params.planId, request.params.nonce);
    },
  });

  // Approval of a replacement enrolment, linked as the change's hostedUrl: an upgrade above the authorised amount
  // (/checkout/plan-changes) or a move to another wallet started in the portal (/checkout/wallet-changes). One
  // service, one page script; the path says which kind of id it takes.
  const approvals = [
    {
      base: '/checkout/plan-changes',
      params: checkoutReauthorisationParams,
      page: 'The hosted approval page of an upgrade above the authorised amount',
      offer: 'What the hosted approval page asks the subscribing wallet to sign for an upgrade above the authorised amount',
      offerDescription:
        "Public; the `token` of the plan change's `hostedUrl` is the capability (an unknown change and a wrong token are the same 404). A new enrolment for the new plan's amount on the subscription's chain, whose period 0 is the subscription's next period (`firstChargeAt`, signed as `terms.trialEnd`; at least an hour ahead, else the one after), for the periods left of the term. Once it is on chain the subscription charges through it from that period and the old enrolment is cancelled on chain. A change no longer waiting, or a subscription not trialing or active, is `session_invalid_state`.",
      submit:
        "Approve an upgrade above the authorised amount with the subscriber's signed permit and Enrolment (used by the hosted approval page)",
      submitDescription:
        "Public and same-origin; the body carries the link's `token`. Only the subscribing wallet (`subscriber`, else `invalid_request`), over exactly the offered terms (`terms`). The server binds the enrolment to the subscription (its start and amount), then relays it as POST /v1/relay/subscriptions under the Idempotency-Key `checkout_<planChangeId>_<enrolment nonce>`; the change is applied when the enrolment is indexed. Refusals are those of GET .../reauthorisation and the relay's.",
      status: 'Where an approved upgrade above the authorised amount stands (used by the hosted approval page)',
    },
    {
      base: '/checkout/wallet-changes',
      params: checkoutWalletChangeParams,
      page: 'The hosted approval page of a move to another wallet',
      offer: 'What the hosted approval page asks the new wallet to sign to move a subscription to it',
      offerDescription:
        "Public; the `token` of the wallet change's `hostedUrl` (given to the customer in the portal) is the capability (an unknown change and a wrong token are the same 404). A new enrolment by the wallet the customer named (`subscriber`) for the subscription's plan and current authorised amount, on its chain, whose period 0 is the subscription's next period (`firstChargeAt`), for the periods left of the term. Once it is on chain the subscription charges that wallet from that period and the old enrolment is cancelled on chain. A change no longer waiting, or a subscription not trialing or active, is `session_invalid_state`.",
      submit: "Move a subscription to another wallet with that wallet's signed permit and Enrolment (used by the hosted approval page)",
      submitDescription:
        "Public and same-origin; the body carries the link's `token`. Only the wallet named when the change was started (`subscriber`, else `invalid_request`), over exactly the offered terms (`terms`). The server binds the enrolment to the subscription (its start and amount), then relays it as POST /v1/relay/subscriptions under the Idempotency-Key `checkout_<walletChangeId>_<enrolment nonce>`; the subscription moves when the enrolment is indexed. Refusals are those of GET .../reauthorisation and the relay's.",
      status: 'Where an approved move to another wallet stands (used by the hosted approval page)',
    },
  ] as const;
  for (const approval of approvals) {
    app.route({
      method: 'GET',
      url: `${approval.base}/:id`,
      config: { access: access.public() },
      schema: {
        hide: true,
        tags: ['Checkout'],
        summary: approval.page,
        params: checkoutReauthorisationPageParams,
        querystring: checkoutReauthorisationPageQuery,
      },
      handler: async (request, reply) => {
        const page = await checkout.reauthorisationPage(request.params.id, request.query.token);
        return reply
          .code(page.status)
          .headers({ ...CHECKOUT_SECURITY_HEADERS, 'referrer-policy': 'no-referrer' })
          .type('text/html; charset=utf-8')
          .send(page.html);
      },
    });

    app.route({
      method: 'GET',
      url: `${approval.base}/:id/reauthorisation`,
      config: { access: access.public() },
      schema: {
        tags: ['Checkout'],
        summary: approval.offer,
        description: approval.offerDescription,
        params: approval.params,
        querystring: checkoutReauthorisationQuery,
        response: { 200: checkoutReauthorisationOffer },
      },
      handler: async (request, reply) => {
        reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
        return withSafeChainErrors(() => checkout.reauthorisationOffer(request.params.id, request.query.token));
      },
    });

    app.route({
      method: 'GET',
      url: `${approval.base}/:id/status`,
      config: { access: access.public() },
      schema: {
        tags: ['Checkout'],
        summary: approval.status,
        description:
          "Public; the link's `token` is the capability (an unknown change and a wrong token are the same 404). `status` is `pending` until a signature is relayed, `submitted` while the relayed enrolment waits to be indexed, then `applied`; `cancelled` once the change was withdrawn. A signature that reached a subscription unable to take it (at risk, or its next period already charged) is cancelled on chain and the change is `pending` again.",
        params: approval.params,
        querystring: checkoutReauthorisationQuery,
        response: { 200: checkoutReauthorisationStatus },
      },
      handler: async (request, reply) => {
        reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
        return checkout.reauthorisationStatus(request.params.id, request.query.token);
      },
    });

    app.route({
      method: 'POST',
      url: `${approval.base}/:id/reauthorise`,
      config: { access: access.public() },
      schema: {
        tags: ['Checkout'],
        summary: approval.submit,
        description: approval.submitDescription,
        params: approval.params,
        body: checkoutReauthorisationBody,
        response: { 200: checkoutReauthorisation },
      },
      handler: async (request, reply) => {
        reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
        return withSafeChainErrors(() => checkout.reauthorise(request.params.id, request.body));
      },
    });
  }

  // Renewal of a subscription's allowance, linked from the renewal email: the same page frame and script.
  app.route({
    method: 'GET',
    url: '/checkout/subscriptions/:id/renew',
    config: { access: access.public() },
    schema: {
      hide: true,
      tags: ['Checkout'],
      summary: "The hosted renewal page of a subscription's allowance",
      params: checkoutRenewalPageParams,
      querystring: checkoutRenewalPageQuery,
    },
    handler: async (request, reply) => {
      const page = await checkout.renewalPage(request.params.id, request.query.token);
      return reply.code(page.status).headers(CHECKOUT_SECURITY_HEADERS).type('text/html; charset=utf-8').send(page.html);
    },
  });

  app.route({
    method: 'GET',
    url: '/checkout/subscriptions/:id/renewal',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: 'What the hosted renewal page asks the subscriber to sign',
      description:
        "Public; the `token` of the emailed renewal link is the capability (an unknown subscription and a wrong token are the same 404). The token's EIP-712 domain, the subscriber, the SubscriptionManager (spender), the current allowance and permit nonce, and the allowance to permit: the current one plus 12 periods.",
      params: checkoutRenewalParams,
      querystring: checkoutRenewalQuery,
      response: { 200: checkoutRenewalOffer },
    },
    handler: async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      return withSafeChainErrors(() => checkout.renewalOffer(request.params.id, request.query.token));
    },
  });

  app.route({
    method: 'POST',
    url: '/checkout/subscriptions/:id/renew',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: "Renew a subscription's allowance with the subscriber's signed EIP-2612 permit (used by the hosted renewal page)",
      description:
        "Public and same-origin; the body carries the renewal link's `token`. The permit must be signed by the subscriber for the SubscriptionManager at the current permit nonce, unexpired, cover one period and raise the allowance. The operator submits it (workflow `<subscription id>_renew_<permit nonce>`: a re-post while it runs or once it confirmed starts nothing new; after a refusal, e.g. `token_paused`, the permit nonce is still unused and a new post submits again); an at_risk charge is retried as soon as the Approval is indexed. Refused for a cancelled, lapsed or completed subscription (session_invalid_state).",
      params: checkoutRenewalParams,
      body: checkoutRenewalBody,
      response: { 200: checkoutRenewal },
    },
    handler: async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      return withSafeChainErrors(() => checkout.renew(request.params.id, request.body));
    },
  });

  app.route({
    method: 'GET',
    url: '/checkout/subscriptions/:id/renewals/:nonce',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: 'On-chain status of a renewal submitted from the hosted page',
      params: checkoutRenewalStatusParams,
      querystring: checkoutRenewalQuery,
      response: { 200: checkoutRenewal },
    },
    handler: async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      return checkout.renewalStatus(request.params.id, request.params.nonce, request.query.token);
    },
  });
}
