// Storefront and products: one public shop page per merchant and mode
// (`/store/{slug}`), whose buy buttons create payment sessions through the
// payment-session service (or send the customer to a plan's hosted enrolment).
import type { Db, Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError, RateLimitedError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import type { EventType } from '../events/types.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import type { PaymentSessionService } from '../payment-sessions/service.js';
import { EXPIRY_SECONDS } from '../payment-sessions/schemas.js';
import { SESSION_ID_PLACEHOLDER } from '../payment-sessions/api-shape.js';
import type { RateLimiter } from '../rate-limits/service.js';
import { formatAmount } from './page.js';
import * as repo from './repo.js';
import {
  DEFAULT_ACCENT_COLOR,
  SLUG_PATTERN,
  type CreateProductBody,
  type Product,
  type ProductListQuery,
  type Store,
  type StorePurchase,
  type Storefront,
  type UpdateProductBody,
  type UpsertStorefrontBody,
} from './schemas.js';

/** Anonymous purchases (session creations) from the public page, per client IP over every store. */
export const STORE_PURCHASES_PER_IP_PER_MINUTE = 20;
/** Anonymous purchases per storefront, whoever makes them (many IPs hammering one shop). */
export const STORE_PURCHASES_PER_STOREFRONT_PER_MINUTE = 600;
/** The public page shows at most this many products (the first added). */
export const STORE_PAGE_MAX_PRODUCTS = 100;

const base = (publicBaseUrl: string) => publicBaseUrl.replace(/\/+$/, '');

export function storeUrl(publicBaseUrl: string, slug: string): string {
  return `${base(publicBaseUrl)}/store/${slug}`;
}

export function renderStorefront(row: repo.StorefrontRow, publicBaseUrl: string): Storefront {
  return {
    id: row.id,
    object: 'storefront',
    slug: row.slug,
    name: row.name,
    description: row.description,
    logoUrl: row.logoUrl,
    accentColor: row.accentColor,
    supportEmail: row.supportEmail,
    successUrl: row.successUrl,
    cancelUrl: row.cancelUrl,
    url: storeUrl(publicBaseUrl, row.slug),
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function renderProduct(row: repo.ProductRow): Product {
  return {
    id: row.id,
    object: 'product',
    name: row.name,
    description: row.description,
    imageUrl: row.imageUrl,
    amount: row.amount,
    currency: row.currency,
    planId: row.planId,
    active: row.active,
    archived: row.archivedAt !== null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint_name?: string };
  return e?.code === '23505' && e.constraint_name === constraint;
}

function slugTaken(slug: string): InvalidRequestError {
  return new InvalidRequestError(`The slug "${slug}" is already taken by another storefront; choose another one.`, { param: 'slug' });
}

export type StorefrontServiceDeps = {
  sql: Sql;
  events: EventDispatcher;
  sessions: PaymentSessionService;
  limiter: RateLimiter;
  publicBaseUrl: string;
  purchaseLimits?: { perIpPerMinute?: number; perStorefrontPerMinute?: number };
};

export function createStorefrontService({ sql, events, sessions, limiter, publicBaseUrl, purchaseLimits = {} }: StorefrontServiceDeps) {
  const perIp = purchaseLimits.perIpPerMinute ?? STORE_PURCHASES_PER_IP_PER_MINUTE;
  const perStorefront = purchaseLimits.perStorefrontPerMinute ?? STORE_PURCHASES_PER_STOREFRONT_PER_MINUTE;

  /** Writes a product change and its event in one transaction, then dispatches the event. */
  async function productChange(scope: MerchantScope, type: EventType, change: (tx: Db) => Promise<repo.ProductRow>): Promise<Product> {
    return commitWithEvents(sql, events, async (tx, record) => {
      const product = renderProduct(await change(tx));
      await record({ ...scope, type, data: { object: product } });
      return product;
    });
  }

  async function planTerms(tx: Db, scope: MerchantScope, planId: string) {
    const plan = await repo.findPlanTerms(tx, scope, planId);
    // A well-formed id that names no plan of this merchant and mode: not_found on the field, like any unknown object.
    if (!plan) throw new NotFoundError(`No such subscription plan: ${planId}.`, { param: 'planId' });
    if (plan.archived)
      throw new InvalidStateError(`Subscription plan ${planId} is archived and takes no new subscribers.`, { param: 'planId' });
    return plan;
  }

  return {
    /**
     * Creates the storefront of this merchant and mode on the first call (slug and name required),
     * updates it afterwards (only the keys sent). A slug held by any other storefront is refused.
     */
    async upsert(scope: MerchantScope, input: UpsertStorefrontBody): Promise<Storefront> {
      try {
        const row = await commitWithEvents(sql, events, async (tx, record) => {
          const current = await repo.lockStorefront(tx, scope);
          if (!current) {
            const missing = (['slug', 'name'] as const).filter((key) => input[key] === undefined);
            if (missing.length > 0) {
              throw new InvalidRequestError(
                `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required to create the storefront.`,
                {
                  param: missing[0],
                  issues: missing.map((path) => ({ path, message: 'Required when the storefront is created' })),
                },
              );
            }
          }
          const fields: repo.StorefrontFields = {
            slug: input.slug ?? current!.slug,
            name: input.name ?? current!.name,
            description: input.description !== undefined ? input.description || null : (current?.description ?? null),
            logoUrl: input.logoUrl !== undefined ? input.logoUrl : (current?.logoUrl ?? null),
            accentColor: input.accentColor ?? current?.accentColor ?? DEFAULT_ACCENT_COLOR,
            supportEmail: input.supportEmail !== undefined ? input.supportEmail : (current?.supportEmail ?? null),
            successUrl: input.successUrl !== undefined ? input.successUrl : (current?.successUrl ?? null),
            cancelUrl: input.cancelUrl !== undefined ? input.cancelUrl : (current?.cancelUrl ?? null),
          };
          let row: repo.StorefrontRow;
          if (current) {
            const unchanged = (Object.keys(fields) as (keyof repo.StorefrontFields)[]).every((key) => fields[key] === current[key]);
            if (unchanged) return current;
            row = await repo.updateStorefront(tx, current.id, fields);
          } else {
            const inserted = await repo.insertStorefront(tx, { id: newId('storefront'), ...scope, ...fields });
            // A concurrent first call created it between our read and insert: update that one instead.
            row = inserted ?? (await repo.updateStorefront(tx, (await repo.lockStorefront(tx, scope))!.id, fields));
          }
          await record({ ...scope, type: 'storefront.updated', data: { object: renderStorefront(row, publicBaseUrl) } });
          return row;
        });
        return renderStorefront(row, publicBaseUrl);
      } catch (error) {
        if (isUniqueViolation(error, 'storefronts_slug_key')) throw slugTaken(input.slug ?? '');
        throw error;
      }
    },

    async get(scope: MerchantScope): Promise<Storefront> {
      const row = await repo.findStorefront(sql, scope);
      if (!row) throw new NotFoundError('This merchant has no storefront in this mode yet; create it with POST /v1/storefront.');
      return renderStorefront(row, publicBaseUrl);
    },

    async createProduct(scope: MerchantScope, input: CreateProductBody): Promise<Product> {
      return productChange(scope, 'product.created', async (tx) => {
        let amount = input.amount;
        let currency: string = input.currency;
        if (input.planId) {
          const plan = await planTerms(tx, scope, input.planId);
          if (amount !== undefined && amount !== plan.amount) {
            throw new InvalidRequestError(`amount must equal the plan's amount (${plan.amount}) or be left out.`, { param: 'amount' });
          }
          amount = plan.amount;
          currency = plan.currency;
        }
        if (amount === undefined) throw new InvalidRequestError('amount is required for a product without a planId.', { param: 'amount' });
        return repo.insertProduct(tx, {
          id: newId('product'),
          ...scope,
          name: input.name,
          description: input.description || null,
          imageUrl: input.imageUrl ?? null,
          amount,
          currency,
          planId: input.planId ?? null,
          active: input.active,
        });
      });
    },

    async getProduct(scope: MerchantScope, id: string): Promise<Product> {
      const row = await repo.findProduct(sql, scope, id);
      if (!row) throw new NotFoundError(`No such product: ${id}.`, { param: 'id' });
      return renderProduct(row);
    },

    async listProducts(scope: MerchantScope, query: ProductListQuery): Promise<Page<Product>> {
      const rows = await repo.listProducts(sql, scope, {
        before: decodeCursor(query.cursor),
        limit: query.limit,
        archived: query.archived,
        active: query.active,
      });
      return toPage(rows, query.limit, renderProduct);
    },

    /** Only the keys sent change. An archived product cannot change (session_invalid_state). */
    async updateProduct(scope: MerchantScope, id: string, input: UpdateProductBody): Promise<Product> {
      return productChange(scope, 'product.updated', async (tx) => {
        const current = await repo.findProduct(tx, scope, id, { lock: true });
        if (!current) throw new NotFoundError(`No such product: ${id}.`, { param: 'id' });
        if (current.archivedAt) throw new InvalidStateError(`Product ${id} is archived and cannot be changed.`, { param: 'id' });
        if (current.planId && input.amount !== undefined && input.amount !== current.amount) {
          throw new InvalidRequestError("The price of a subscription product is its plan's amount; it cannot be set here.", {
            param: 'amount',
          });
        }
        return repo.updateProduct(tx, id, {
          name: input.name ?? current.name,
          description: input.description !== undefined ? input.description || null : current.description,
          imageUrl: input.imageUrl !== undefined ? input.imageUrl : current.imageUrl,
          amount: input.amount ?? current.amount,
          active: input.active ?? current.active,
        });
      });
    },

    /** Takes the product off the public page for good; sessions bought for it keep it. Twice: session_invalid_state. */
    async archiveProduct(scope: MerchantScope, id: string): Promise<Product> {
      return productChange(scope, 'product.archived', async (tx) => {
        const current = await repo.findProduct(tx, scope, id, { lock: true });
        if (!current) throw new NotFoundError(`No such product: ${id}.`, { param: 'id' });
        const archived = await repo.archiveProduct(tx, id);
        if (!archived) throw new InvalidStateError(`Product ${id} is already archived.`, { param: 'id' });
        return archived;
      });
    },

    /** The public read of a store: its active products. Unknown slug (any shape): not_found. */
    async store(slug: string): Promise<Store> {
      const row = SLUG_PATTERN.test(slug) ? await repo.findStorefrontBySlug(sql, slug) : undefined;
      if (!row) throw new NotFoundError(`No store at /store/${slug.slice(0, 100)}.`, { param: 'slug' });
      const products = await repo.listStoreProducts(sql, row, STORE_PAGE_MAX_PRODUCTS);
      return {
        object: 'store',
        slug: row.slug,
        name: row.name,
        description: row.description,
        logoUrl: row.logoUrl,
        accentColor: row.accentColor,
        supportEmail: row.supportEmail,
        livemode: row.livemode,
        products: products.map((p) => ({
          id: p.id,
          name: p.name,
          description: p.description,
          imageUrl: p.imageUrl,
          amount: p.amount,
          currency: p.currency,
          displayPrice: `${formatAmount(p.amount)} ${p.currency}`,
          kind: p.planId ? 'subscription' : 'one_time',
          interval: p.planId ? p.interval : null,
          intervalCount: p.planId ? p.intervalCount : null,
          purchasePath: `/store/${row.slug}/products/${p.id}/purchase`,
        })),
      };
    },

    /**
     * A buy button: for a one-shot product, a payment session for its price, created through the
     * payment-session service (its workflow start goes through the outbox) and naming the product;
     * for a plan product, the plan's hosted enrolment. Anonymous, so rate-limited per client IP and
     * per storefront before anything is created.
     */
    async purchase(slug: string, productId: string, clientIp: string): Promise<StorePurchase> {
      const storefront = SLUG_PATTERN.test(slug) ? await repo.findStorefrontBySlug(sql, slug) : undefined;
      if (!storefront) throw new NotFoundError(`No store at /store/${slug.slice(0, 100)}.`, { param: 'slug' });
      const scope = { merchantId: storefront.merchantId, livemode: storefront.livemode };
      const product = await repo.findProduct(sql, scope, productId);
      if (!product || !product.active) throw new NotFoundError(`No such product on sale in this store: ${productId}.`, { param: 'id' });

      for (const [bucket, limit] of [
        [`store-purchase:ip:${clientIp}`, perIp],
        [`store-purchase:sf:${storefront.id}`, perStorefront],
      ] as const) {
        const decision = limiter.hit(bucket, limit);
        if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
      }

      if (product.planId) {
        const checkoutPath = `/checkout/plans/${product.planId}`;
        return {
          object: 'store_purchase',
          productId: product.id,
          kind: 'subscription',
          paymentSessionId: null,
          checkoutUrl: `${base(publicBaseUrl)}${checkoutPath}`,
          checkoutPath,
        };
      }
      const page = storeUrl(publicBaseUrl, storefront.slug);
      const session = await sessions.create(
        scope,
        {
          amount: product.amount,
          currency: product.currency as 'USDC',
          expiresInSeconds: EXPIRY_SECONDS.default,
          successUrl: storefront.successUrl ?? `${page}?purchased=${product.id}&session=${SESSION_ID_PLACEHOLDER}`,
          cancelUrl: storefront.cancelUrl ?? page,
          metadata: {},
        },
        undefined,
        { productId: product.id, productName: product.name },
      );
      return {
        object: 'store_purchase',
        productId: product.id,
        kind: 'one_time',
        paymentSessionId: session.id,
        checkoutUrl: session.checkoutUrl,
        checkoutPath: `/checkout/${session.id}`,
      };
    },
  };
}

export type StorefrontService = ReturnType<typeof createStorefrontService>;
