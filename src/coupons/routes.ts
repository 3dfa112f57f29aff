// HTTP routes of coupons. Scopes: the plan scopes (a coupon is part of the price catalogue; decisions.md).
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { foldMetadataQuery } from '../http/metadata.js';
import { requestScope } from '../http/principal.js';
import { coupon, couponList, couponListQuery, couponParams, createCouponBody, deletedCoupon, updateCouponBody } from './schemas.js';
import type { CouponService } from './service.js';

export function registerCouponRoutes(app: FastifyZodInstance, coupons: ServiceOn<CouponService>): void {
  app.route({
    method: 'POST',
    url: '/v1/coupons',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Coupons'],
      summary: 'Create a coupon',
      description:
        'A percent (`percentOff`) or an amount (`amountOff`) off each discounted charge, for `once`, `repeating` (`durationInPeriods` charged periods) or `forever`. Apply it to a subscription with `POST /v1/subscriptions/{id}/discount`, or give customers a promotion code on it. Emits `coupon.created`.',
      operationId: 'createCoupon',
      body: createCouponBody,
      response: { 200: coupon },
    },
    handler: (request) => coupons(request.db).create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/coupons/:id',
    config: { access: access.scope('plans_read') },
    schema: { tags: ['Coupons'], summary: 'Retrieve a coupon', operationId: 'getCoupon', params: couponParams, response: { 200: coupon } },
    handler: (request) => coupons(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/v1/coupons',
    config: { access: access.scope('plans_read') },
    preValidation: foldMetadataQuery,
    schema: {
      tags: ['Coupons'],
      summary: 'List coupons',
      description: 'Coupons not deleted, newest first; `metadata[key]=value` keeps those whose metadata holds every pair given.',
      operationId: 'listCoupons',
      querystring: couponListQuery,
      response: { 200: couponList },
    },
    handler: (request) => coupons(request.db).list(requestScope(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/coupons/:id',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Coupons'],
      summary: 'Update a coupon',
      description:
        'Only `name` and `metadata` may change: the terms are what the discounts already applied were given. Emits `coupon.updated` when something changed.',
      operationId: 'updateCoupon',
      params: couponParams,
      body: updateCouponBody,
      response: { 200: coupon },
    },
    handler: (request) => coupons(request.db).update(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'DELETE',
    url: '/v1/coupons/:id',
    config: { access: access.scope('plans_write') },
    schema: {
      tags: ['Coupons'],
      summary: 'Delete a coupon',
      description:
        'The coupon can no longer be applied, nor its promotion codes redeemed, and it is `not_found` from then on; discounts already applied on it keep running to their end. Emits `coupon.deleted`.',
      operationId: 'deleteCoupon',
      params: couponParams,
      response: { 200: deletedCoupon },
    },
    handler: (request) => coupons(request.db).remove(requestScope(request), request.params.id),
  });
}
