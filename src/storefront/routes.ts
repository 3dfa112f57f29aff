// HTTP routes of the storefront and its products (merchant API), and the public
// store page with its buy route (no credentials).
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { optionalBody } from '../http/schemas.js';
import { registerHostedScriptRoute } from '../hosted-pages/scripts.js';
import { STORE_SCRIPT_PATH, STORE_SECURITY_HEADERS, renderStoreNotFoundPage, renderStorePage } from './page.js';
import {
  createProductBody,
  product,
  productList,
  productListQuery,
  productParams,
  store,
  storePageParams,
  storePurchase,
  storePurchaseParams,
  storefront,
  updateProductBody,
  upsertStorefrontBody,
} from './schemas.js';
import type { StorefrontService } from './service.js';

const TAG = 'Storefront';
const WRITE = access.scope('storefront_write');
/** The storefront has no read scope of its own among the eighteen: reads take the catalogue's (docs/decisions.md, Storefront). */
const READ = access.scope('plans_read');

/** JSON when the client asks for it and not for HTML (browsers always list text/html). */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  return types.includes('application/json') && !types.includes('text/html');
}

export function registerStorefrontRoutes(
  app: FastifyZodInstance,
  storefronts: ServiceOn<StorefrontService>,
  assets: { distDir?: string | undefined } = {},
): void {
  app.route({
    method: 'POST',
    url: '/v1/storefront',
    config: { access: WRITE },
    schema: {
      tags: [TAG],
      summary: 'Create or update the storefront',
      description:
        'One storefront per merchant and mode. The first call creates it (`slug` and `name` required); later calls change only the keys sent (`null` clears an optional field). A slug held by any other storefront, in either mode, is `invalid_request` with param `slug`. Emits `storefront.updated` when something changed.',
      body: upsertStorefrontBody,
      response: { 200: storefront },
    },
    handler: (request) => storefronts(request.db).upsert(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/storefront',
    config: { access: READ },
    schema: {
      tags: [TAG],
      summary: 'Retrieve the storefront',
      description: 'The storefront of this merchant and mode; `not_found` until it is created.',
      response: { 200: storefront },
    },
    handler: (request) => storefronts(request.db).get(requestScope(request)),
  });

  app.route({
    method: 'POST',
    url: '/v1/storefront/products',
    config: { access: WRITE },
    schema: {
      tags: [TAG],
      summary: 'Add a product',
      description:
        "A one-shot product has an `amount`; a product with `planId` enrols the buyer in that plan (its price is the plan's). Active products appear on the public page `/store/{slug}`. Emits `product.created`.",
      body: createProductBody,
      response: { 200: product },
    },
    handler: (request) => storefronts(request.db).createProduct(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/storefront/products',
    config: { access: READ },
    schema: { tags: [TAG], summary: 'List products', querystring: productListQuery, response: { 200: productList } },
    handler: (request) => storefronts(request.db).listProducts(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/storefront/products/:id',
    config: { access: READ },
    schema: { tags: [TAG], summary: 'Retrieve a product', params: productParams, response: { 200: product } },
    handler: (request) => storefronts(request.db).getProduct(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/storefront/products/:id',
    config: { access: WRITE },
    schema: {
      tags: [TAG],
      summary: 'Update a product',
      description:
        'Only the keys sent change. A new `amount` applies to future purchases. An archived product cannot change (`session_invalid_state`). Emits `product.updated`.',
      operationId: 'updateProduct',
      params: productParams,
      body: updateProductBody,
      response: { 200: product },
    },
    handler: (request) => storefronts(request.db).updateProduct(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/storefront/products/:id/archive',
    config: { access: WRITE },
    schema: {
      tags: [TAG],
      summary: 'Archive a product',
      description:
        'Takes the product off the public page for good (it can no longer be bought or changed); it stays readable, and payment sessions bought for it keep their `productId`. Archiving an archived product is `session_invalid_state`. Emits `product.archived`.',
      operationId: 'archiveProduct',
      params: productParams,
      body: optionalBody(z.object({}).strict()),
      response: { 200: product },
    },
    handler: (request) => storefronts(request.db).archiveProduct(requestScope(request), request.params.id),
  });

  // The public page and its buy route.
  registerHostedScriptRoute(app, {
    url: STORE_SCRIPT_PATH,
    name: 'store.js',
    headers: STORE_SECURITY_HEADERS,
    tag: TAG,
    summary: 'The store page script',
    distDir: assets.distDir,
  });

  app.route({
    method: 'GET',
    url: '/store/:slug',
    config: { access: access.public(), htmlResponses: [200, 404] },
    schema: {
      tags: [TAG],
      summary: 'The public store page',
      description:
        'Public, no credentials. A server-rendered HTML page listing the active products with their prices and buy buttons; with `Accept: application/json` (and not text/html) the same data as JSON (below). An unknown slug is 404: an HTML page for browsers, the error envelope (`not_found`, param `slug`) for JSON.',
      operationId: 'getStore',
      params: storePageParams,
      response: { 200: store },
    },
    handler: async (request, typedReply) => {
      // The HTML page is a string outside the JSON response schema: sent as text/html, never serialized.
      const reply = typedReply as FastifyReply;
      const json = wantsJson(request.headers.accept);
      reply.header('vary', 'Accept');
      if (json) return reply.header('cache-control', 'no-store').send(await storefronts(request.db).store(request.params.slug));
      try {
        const page = await storefronts(request.db).store(request.params.slug);
        return reply.headers(STORE_SECURITY_HEADERS).type('text/html; charset=utf-8').send(renderStorePage(page));
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        return reply.code(404).headers(STORE_SECURITY_HEADERS).type('text/html; charset=utf-8').send(renderStoreNotFoundPage());
      }
    },
  });

  app.route({
    method: 'POST',
    url: '/store/:slug/products/:id/purchase',
    config: { access: access.public() },
    schema: {
      tags: [TAG],
      summary: 'Buy a product from the public store page',
      description:
        "Public and same-origin: the store page's buy button posts here. For a one-shot product it creates a payment session for the product's price (naming the product in `productId`, with the storefront's success and cancel URLs) and answers with its hosted checkout; for a subscription product it answers with the plan's hosted enrolment page. An unknown store or a product not on sale is `not_found`. Rate-limited per client IP and per storefront (429 `rate_limited` with `Retry-After`), checked before anything is created.",
      operationId: 'purchaseStoreProduct',
      params: storePurchaseParams,
      body: optionalBody(z.object({}).strict()),
      response: { 200: storePurchase },
    },
    handler: async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      return storefronts(request.db).purchase(request.params.slug, request.params.id, request.ip);
    },
  });
}
