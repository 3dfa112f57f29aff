// HTTP routes of promotion codes. Scopes: the plan scopes, as coupons (decisions.md).
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { foldMetadataQuery } from '../http/metadata.js';
import { requestScope } from '../http/principal.js';
import {
  createPromotionCodeBody,
  promotionCode,
  promotionCodeList,
  promotionCodeListQuery,
  promotionCodeParams,
  updatePromotionCodeBody,
} from './schemas.js';
import type { PromotionCodeService } from './service.js';

export function registerPromotionCodeRoutes(app: FastifyZodInstance, codes: ServiceOn<PromotionCodeService>): void {
  app.route({
    method: 'POST',
    url: '/v1/promotion-codes',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Promotion codes'],
      summary: 'Create a promotion code',
      description:
        'A customer-facing code on a coupon: the hosted enrolment page takes it, and `POST /v1/subscriptions/{id}/discount` with `promotionCode`. A code already in use (any letter case) is `invalid_request` with param `code`. Emits `promotion_code.created`.',
      operationId: 'createPromotionCode',
      body: createPromotionCodeBody,
      response: { 200: promotionCode },
    },
    handler: (request) => codes(request.db).create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/promotion-codes/:id',
    config: { access: access.scope('plans_read') },
    schema: {
      tags: ['Promotion codes'],
      summary: 'Retrieve a promotion code',
      operationId: 'getPromotionCode',
      params: promotionCodeParams,
      response: { 200: promotionCode },
    },
    handler: (request) => codes(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/promotion-codes',
    config: { access: access.scope('plans_read') },
    preValidation: foldMetadataQuery,
    schema: {
      tags: ['Promotion codes'],
      summary: 'List promotion codes',
      operationId: 'listPromotionCodes',
      querystring: promotionCodeListQuery,
      response: { 200: promotionCodeList },
    },
    handler: (request) => codes(request.db).list(requestScope(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/promotion-codes/:id',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Promotion codes'],
      summary: 'Update a promotion code',
      description: 'Only `active` and `metadata` may change. Emits `promotion_code.updated` when something changed.',
      operationId: 'updatePromotionCode',
      params: promotionCodeParams,
      body: updatePromotionCodeBody,
      response: { 200: promotionCode },
    },
    handler: (request) => codes(request.db).update(requestScope(request), request.params.id, request.body),
  });
}
