// HTTP routes of refunds.
import type { FastifyZodInstance } from '../http/types.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { createRefundBody, refund, refundList, refundListQuery, refundParams, refundSignatureBody } from './schemas.js';
import type { RefundService } from './service.js';

export function registerRefundRoutes(app: FastifyZodInstance, refunds: RefundService): void {
  app.route({
    method: 'POST',
    url: '/v1/refunds',
    config: { access: access.scope('refunds_write') },
    schema: {
      tags: ['Refunds'],
      summary: 'Create a refund and get the wallet-signing instructions',
      body: createRefundBody,
      response: { 200: refund },
    },
    handler: (request) => refunds.create(requestScope(request), request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/refunds/:id/signature',
    config: { access: access.scope('refunds_write') },
    schema: {
      operationId: 'recordRefundSignature',
      tags: ['Refunds'],
      summary: "Record the refund's on-chain transaction (verified before the refund succeeds)",
      params: refundParams,
      body: refundSignatureBody,
      response: { 200: refund },
    },
    handler: (request) => refunds.recordTransaction(requestScope(request), request.params.id, request.body.transactionHash),
  });

  app.route({
    method: 'POST',
    url: '/v1/refunds/:id/cancel',
    config: { access: access.scope('refunds_write') },
    schema: {
      tags: ['Refunds'],
      summary: 'Cancel a pending refund, releasing the amount it reserved',
      description: 'Only a pending refund can be cancelled; a succeeded or cancelled one answers 403 session_invalid_state.',
      params: refundParams,
      response: { 200: refund },
    },
    handler: (request) => refunds.cancel(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/refunds/:id',
    config: { access: access.scope('refunds_read') },
    schema: { tags: ['Refunds'], summary: 'Retrieve a refund', params: refundParams, response: { 200: refund } },
    handler: (request) => refunds.get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/refunds',
    config: { access: access.scope('refunds_read') },
    schema: { tags: ['Refunds'], summary: 'List refunds', querystring: refundListQuery, response: { 200: refundList } },
    handler: (request) => refunds.list(requestScope(request), request.query),
  });
}
