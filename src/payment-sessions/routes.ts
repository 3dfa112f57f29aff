// HTTP routes of payment sessions, including the public read for the hosted checkout.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { foldMetadataQuery } from '../http/metadata.js';
import { publishableKeyId, requestApiKeyId, requestScope } from '../http/principal.js';
import {
  checkoutSession,
  createPaymentSessionBody,
  paymentSession,
  paymentSessionList,
  paymentSessionListQuery,
  paymentSessionParams,
  paymentSessionTransactionList,
} from './schemas.js';
import type { PaymentSessionService } from './service.js';

export function registerPaymentSessionRoutes(app: FastifyZodInstance, sessions: ServiceOn<PaymentSessionService>): void {
  app.route({
    method: 'POST',
    url: '/v1/payment-sessions',
    config: { access: access.scope('payment_sessions_write', { publishableKey: true }) },
    schema: {
      tags: ['Payment sessions'],
      summary: 'Create a payment session (allowed for publishable keys)',
      body: createPaymentSessionBody,
      response: { 200: paymentSession },
    },
    handler: (request) => sessions(request.db).create(requestScope(request), request.body, requestApiKeyId(request)),
  });

  app.route({
    method: 'GET',
    url: '/v1/payment-sessions/:id',
    config: { access: access.scope('payment_sessions_read', { publishableKey: true }) },
    schema: {
      tags: ['Payment sessions'],
      summary: 'Retrieve a payment session',
      description: 'A publishable key reads only the sessions it created itself; any other id is not_found for it.',
      params: paymentSessionParams,
      response: { 200: paymentSession },
    },
    handler: (request) => sessions(request.db).get(requestScope(request), request.params.id, { createdByKeyId: publishableKeyId(request) }),
  });

  app.route({
    method: 'GET',
    url: '/v1/payment-sessions',
    config: { access: access.scope('payment_sessions_read') },
    preValidation: foldMetadataQuery,
    schema: {
      tags: ['Payment sessions'],
      summary: 'List payment sessions',
      description:
        "Newest first. Filters combine: `customerId` (the paying wallet's customer), `metadata[key]=value` (exact, every pair given must match), `status`, `chainId`, the created-at window and `q`.",
      querystring: paymentSessionListQuery,
      response: { 200: paymentSessionList },
    },
    handler: (request) => sessions(request.db).list(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/payment-sessions/:id/transactions',
    config: { access: access.scope('payment_sessions_read') },
    schema: {
      tags: ['Payment sessions'],
      summary: "List a payment session's transactions",
      description:
        'Every on-chain transaction of the session, oldest first: relayed payments (failed tries included, with their named refusal), transfers into its deposit address and the sweeps forwarding them, and refunds; each with its status, block, confirmations against what the mode requires, and when it was confirmed.',
      operationId: 'listPaymentSessionTransactions',
      params: paymentSessionParams,
      response: { 200: paymentSessionTransactionList },
    },
    handler: (request) => sessions(request.db).listTransactions(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/checkout/sessions/:id',
    config: { access: access.public() },
    schema: {
      tags: ['Checkout'],
      summary: 'A payment session for the hosted checkout page',
      params: paymentSessionParams,
      response: { 200: checkoutSession },
    },
    handler: (request) => sessions(request.db).getForCheckout(request.params.id),
  });
}
