// HTTP routes of refunds.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { foldMetadataQuery } from '../http/metadata.js';
import { requestScope } from '../http/principal.js';
import {
  createRefundBody,
  refundRecipient,
  refundRecipientQuery,
  grantRefundAllowanceBody,
  refund,
  refundAuthorizationBody,
  refundAllowance,
  refundAllowanceQuery,
  refundList,
  refundListQuery,
  refundParams,
  updateRefundBody,
  refundSignatureBody,
} from './schemas.js';
import type { RefundService } from './service.js';

export function registerRefundRoutes(app: FastifyZodInstance, refunds: ServiceOn<RefundService>): void {
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
    handler: (request) => refunds(request.db).create(requestScope(request), request.body),
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
    handler: (request) => refunds(request.db).recordTransaction(requestScope(request), request.params.id, request.body.transactionHash),
  });

  app.route({
    method: 'POST',
    url: '/v1/refunds/:id/authorization',
    config: { access: access.scope('refunds_write') },
    schema: {
      operationId: 'authorizeRefund',
      tags: ['Refunds'],
      summary: "Send a pending refund with the payout wallet's signed EIP-3009 transfer (the relayer submits it)",
      description:
        "For a `pending` (method `wallet`) refund: the payout wallet signs TransferWithAuthorization {from: instructions.from, to: instructions.to, value: amount, validAfter, validBefore, nonce} and this submits it. The refund turns `processing`, then `succeeded` with refund.succeeded once confirmed, or `failed` with the token's named refusal and refund.failed. A signature that is not the payout wallet's, or a message that is not exactly this refund, is 400 invalid_request and sends nothing.",
      params: refundParams,
      body: refundAuthorizationBody,
      response: { 200: refund },
    },
    handler: (request) => refunds(request.db).authorize(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/refunds/:id/cancel',
    config: { access: access.scope('refunds_write') },
    schema: {
      tags: ['Refunds'],
      summary: 'Cancel a pending (or requires_action) refund, releasing the amount it reserved',
      description: 'Only a pending or requires_action refund can be cancelled; any other answers 403 session_invalid_state.',
      params: refundParams,
      response: { 200: refund },
    },
    handler: (request) => refunds(request.db).cancel(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/refunds/allowance',
    config: { access: access.scope('refunds_read') },
    schema: {
      operationId: 'getRefundAllowance',
      tags: ['Refunds'],
      summary: "The refund allowance: the payout wallet's USDC allowance for the operator, and how to grant it",
      description:
        "Per chain (`chainId`, default the mode's first chain; a chain the mode lacks is 400 invalid_request, param chainId): while it covers a refund of a payment on that chain, POST /v1/refunds is sent by the operator there (transferFrom payout -> customer) and completes by itself.",
      querystring: refundAllowanceQuery,
      response: { 200: refundAllowance },
    },
    handler: (request) => refunds(request.db).allowance(requestScope(request), request.query.chainId),
  });

  app.route({
    method: 'POST',
    url: '/v1/refunds/allowance/permit',
    // Sends the permit to the chain: no request transaction (a send never runs in one, src/chain/sender.ts).
    config: { access: access.scope('refunds_write'), commitsBeforeResponse: true },
    schema: {
      operationId: 'grantRefundAllowance',
      tags: ['Refunds'],
      summary: "Grant the refund allowance with the payout wallet's EIP-2612 permit (the operator sends it and pays the gas)",
      description:
        "Sign Permit {owner: payout address, spender, value, nonce, deadline} with the domain of GET /v1/refunds/allowance. The signature is checked before anything is sent; the answer is the allowance once the permit is mined. A signature that is not the payout wallet's, a past deadline or a used nonce is 400 invalid_request, param `signature` or `deadline`.",
      body: grantRefundAllowanceBody,
      response: { 200: refundAllowance },
    },
    handler: (request) => refunds(request.db).grantAllowance(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/refunds/recipient',
    config: { access: access.scope('refunds_read') },
    schema: {
      operationId: 'previewRefundRecipient',
      tags: ['Refunds'],
      summary: 'Who a refund of a payment session would go to, and why (before creating it)',
      description:
        "The rules of POST /v1/refunds without destination or depositId: the relayed payment's signer, else the one sender of the deposits that paid it (never a later deposit's), else the one sender of its late deposits; several senders: `requiresClaim`.",
      querystring: refundRecipientQuery,
      response: { 200: refundRecipient },
    },
    handler: (request) => refunds(request.db).recipientPreview(requestScope(request), request.query.paymentSessionId),
  });

  app.route({
    method: 'POST',
    url: '/v1/refunds/:id',
    config: { access: access.scope('refunds_write') },
    schema: {
      tags: ['Refunds'],
      summary: 'Update a refund',
      operationId: 'updateRefund',
      description:
        'Only `metadata` may change, in any status (merged; a key sent as "" is removed): the amount and recipient are fixed once created. Sends `refund.updated` with `previousAttributes.metadata` when the pairs changed (nothing when not). An unknown id, or another merchant’s or mode’s, is `not_found`.',
      params: refundParams,
      body: updateRefundBody,
      response: { 200: refund },
    },
    handler: (request) => refunds(request.db).update(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/refunds/:id',
    config: { access: access.scope('refunds_read') },
    schema: { tags: ['Refunds'], summary: 'Retrieve a refund', params: refundParams, response: { 200: refund } },
    handler: (request) => refunds(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/refunds',
    config: { access: access.scope('refunds_read') },
    preValidation: foldMetadataQuery,
    schema: { tags: ['Refunds'], summary: 'List refunds', querystring: refundListQuery, response: { 200: refundList } },
    handler: (request) => refunds(request.db).list(requestScope(request), request.query),
  });
}
