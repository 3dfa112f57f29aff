// Request and response shapes of the storefront, its products and the public
// store page (the spec shows none: these descriptions are the documentation in
// /openapi.json; docs/decisions.md, Storefront).
import { z } from 'zod';
import { amountString, idParam, pathId, timestamp, emailAddress } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { SUPPORTED_CURRENCIES, PLAN_INTERVALS } from '../subscription-plans/schemas.js';

/** Slugs that name pages of the service or would mislead a customer; refused with invalid_request. */
export const RESERVED_SLUGS = new Set([
  'about',
  'account',
  'accounts',
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'blog',
  'cart',
  'checkout',
  'dashboard',
  'dev',
  'docs',
  'help',
  'home',
  'login',
  'logout',
  'mail',
  'new',
  'null',
  'official',
  'openapi',
  'pay',
  'payment',
  'payments',
  'privacy',
  'products',
  'root',
  'security',
  'settings',
  'shop',
  'signin',
  'signup',
  'stablepay',
  'static',
  'status',
  'store',
  'stores',
  'storefront',
  'support',
  'system',
  'terms',
  'test',
  'undefined',
  'v1',
  'webhooks',
  'www',
]);

/** 3 to 40 characters: lower-case letters, digits and single hyphens, starting and ending with a letter or digit. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?!-)){1,38}[a-z0-9]$/;

export const slug = z
  .string()
  .regex(SLUG_PATTERN, 'must be 3 to 40 lower-case letters, digits or single hyphens, starting and ending with a letter or digit')
  .refine((value) => !RESERVED_SLUGS.has(value), { message: 'is a reserved word; choose another slug' })
  .describe(
    'The address of the public page, `/store/{slug}`: 3 to 40 lower-case letters, digits and single hyphens, unique across the service (a slug taken by any storefront, in either mode, is refused). Reserved words (`admin`, `api`, `checkout`, `store`, ...) are refused.',
  );

/** An https URL (logos, product images: shown on a public https page). */
const httpsUrl = z.url({ protocol: /^https$/ }).max(2048);
/** Where the hosted checkout sends the customer (http allowed, as for payment sessions). */
const redirectUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const accentColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour like #1a73e8')
  .transform((value) => value.toLowerCase())
  .describe('The colour of buttons and highlights on the public page, `#rrggbb` (stored lower-case). Default `#2b59c3`.');

export const DEFAULT_ACCENT_COLOR = '#2b59c3';

const name = z.string().trim().min(1).max(120);
const description = z.string().trim().max(2000);

/**
 * POST /v1/storefront: creates the storefront of this merchant and mode on the first call, then
 * updates it. Only the keys sent change; `null` clears an optional field.
 */
export const upsertStorefrontBody = z
  .object({
    slug: slug.optional().describe('Required when the storefront is created. ' + (slug.description ?? '')),
    name: name.optional().describe('The shop name shown on the page. Required when the storefront is created.'),
    description: description.nullable().optional().describe('A short text under the name.'),
    logoUrl: httpsUrl.nullable().optional().describe('An https URL of the logo shown on the page.'),
    accentColor: accentColor.optional(),
    supportEmail: emailAddress(254).nullable().optional().describe('Shown on the page as the contact for customers.'),
    successUrl: redirectUrl
      .nullable()
      .optional()
      .describe(
        'Where the hosted checkout sends a customer after a confirmed purchase; `{PAYMENT_SESSION_ID}` in it becomes the payment session id. Default: back to the store page, `?purchased=<product id>&session=<payment session id>`.',
      ),
    cancelUrl: redirectUrl
      .nullable()
      .optional()
      .describe('Where the hosted checkout sends a customer who cancels. Default: the store page.'),
  })
  .strict();

export const storefront = z
  .object({
    id: z.string(),
    object: z.literal('storefront'),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    logoUrl: z.string().nullable(),
    accentColor: z.string(),
    supportEmail: z.string().nullable(),
    successUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    url: z.string().describe('The public store page, `{base_url}/store/{slug}`.'),
    livemode: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Storefront' });

export const createProductBody = z
  .object({
    name,
    description: description.nullable().optional(),
    imageUrl: httpsUrl.nullable().optional().describe('An https URL of the product image shown on its card.'),
    amount: amountString
      .optional()
      .describe(
        'Price in USDC base units (6 decimals): "2500000" is 2.50 USDC. Required unless `planId` is given; with `planId` it may be left out (the plan\'s amount is used) and, if given, must equal the plan\'s amount.',
      ),
    currency: z.enum(SUPPORTED_CURRENCIES).default('USDC'),
    planId: idParam('plan')
      .optional()
      .describe(
        'A subscription plan of this merchant and mode: buying the product enrols the customer in the plan through the hosted enrolment page instead of a one-shot payment. Cannot be changed later.',
      ),
    active: z.boolean().default(true).describe('Inactive products are kept but not shown on the public page and cannot be bought.'),
  })
  .strict();

/** POST /v1/storefront/products/{id}: only the keys sent change; `null` clears an optional field. */
export const updateProductBody = z
  .object({
    name: name.optional(),
    description: description.nullable().optional(),
    imageUrl: httpsUrl.nullable().optional(),
    amount: amountString
      .optional()
      .describe(
        'New price for future purchases (sessions already created keep theirs). Refused for a plan product: the plan sets its price.',
      ),
    active: z.boolean().optional(),
  })
  .strict();

export const product = z
  .object({
    id: z.string(),
    object: z.literal('product'),
    name: z.string(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    amount: z.string().describe('Price in token base units, integer string.'),
    currency: z.string(),
    planId: z.string().nullable().describe('The subscription plan a purchase enrols in; null for a one-shot product.'),
    active: z.boolean(),
    archived: z.boolean().describe('Archived products are off the public page for good and cannot be changed.'),
    archivedAt: timestamp.nullable(),
    livemode: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Product' });

export const productParams = z.object({ id: pathId('product') });
export const productList = listOf(product);
export const productListQuery = listQueryOf('product').extend({
  archived: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('`false`: only products not archived; `true`: only archived ones. Absent: all.'),
  active: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('Filter on the active flag.'),
});

/** The public store page's slug parameter: any value; one that names no storefront is 404. */
export const storePageParams = z.object({ slug: z.string().max(1024) });

export const storeProduct = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    amount: z.string().describe('Price in token base units, integer string.'),
    currency: z.string(),
    displayPrice: z.string().describe('The price as shown on the page, e.g. `2.50 USDC`.'),
    kind: z.enum(['one_time', 'subscription']),
    interval: z.enum(PLAN_INTERVALS).nullable().describe('For a subscription product: the billing interval of its plan.'),
    intervalCount: z.number().int().nullable(),
    purchasePath: z.string().describe('POST here (same origin) to buy: `/store/{slug}/products/{id}/purchase`.'),
  })
  .meta({ id: 'StoreProduct' });

/** What anyone may read of a storefront (GET /store/{slug} with Accept: application/json). */
export const store = z
  .object({
    object: z.literal('store'),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    logoUrl: z.string().nullable(),
    accentColor: z.string(),
    supportEmail: z.string().nullable(),
    livemode: z.boolean().describe('False for a test-mode storefront (its page says so; payments are test tokens).'),
    products: z.array(storeProduct).describe('The active products, in the order they were added (at most 100).'),
  })
  .meta({ id: 'Store' });

export const storePurchaseParams = z.object({ slug: z.string().max(1024), id: pathId('product') });

export const storePurchase = z
  .object({
    object: z.literal('store_purchase'),
    productId: z.string(),
    kind: z.enum(['one_time', 'subscription']),
    paymentSessionId: z
      .string()
      .nullable()
      .describe('The payment session created for a one-shot product; null for a subscription product.'),
    checkoutUrl: z.string().describe('The hosted checkout (one-shot) or hosted enrolment (subscription) page to send the customer to.'),
    checkoutPath: z.string().describe('The same page as a path on this host.'),
  })
  .meta({ id: 'StorePurchase' });

export type UpsertStorefrontBody = z.infer<typeof upsertStorefrontBody>;
export type Storefront = z.infer<typeof storefront>;
export type CreateProductBody = z.infer<typeof createProductBody>;
export type UpdateProductBody = z.infer<typeof updateProductBody>;
export type Product = z.infer<typeof product>;
export type ProductListQuery = z.infer<typeof productListQuery>;
export type Store = z.infer<typeof store>;
export type StoreProduct = z.infer<typeof storeProduct>;
export type StorePurchase = z.infer<typeof storePurchase>;
