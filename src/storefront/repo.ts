// SQL for storefronts and products.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';

export type StorefrontRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  slug: string;
  name: string;
  description: string | null;
  logoUrl: string | null;
  accentColor: string;
  supportEmail: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type StorefrontFields = Pick<
  StorefrontRow,
  'slug' | 'name' | 'description' | 'logoUrl' | 'accentColor' | 'supportEmail' | 'successUrl' | 'cancelUrl'
>;

const storefrontColumns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, slug, name, description, logo_url as "logoUrl",
     accent_color as "accentColor", support_email as "supportEmail", success_url as "successUrl",
     cancel_url as "cancelUrl", created_at as "createdAt", updated_at as "updatedAt"`;

/** The merchant's storefront in this mode, locked for the update that follows. */
export async function lockStorefront(db: Db, scope: MerchantScope): Promise<StorefrontRow | undefined> {
  const [row] = await db<StorefrontRow[]>`
    select ${storefrontColumns(db)} from storefronts
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} for update`;
  return row;
}

export async function findStorefront(db: Db, scope: MerchantScope): Promise<StorefrontRow | undefined> {
  const [row] = await db<StorefrontRow[]>`
    select ${storefrontColumns(db)} from storefronts where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

/** Public read by slug (the store page). */
export async function findStorefrontBySlug(db: Db, slug: string): Promise<StorefrontRow | undefined> {
  const [row] = await db<StorefrontRow[]>`select ${storefrontColumns(db)} from storefronts where slug = ${slug}`;
  return row;
}

/** Inserts the storefront; undefined when (merchant, mode) already has one (a concurrent create won). */
export async function insertStorefront(db: Db, row: { id: string } & MerchantScope & StorefrontFields): Promise<StorefrontRow | undefined> {
  const [inserted] = await db<StorefrontRow[]>`
    insert into storefronts (id, merchant_id, livemode, slug, name, description, logo_url, accent_color, support_email,
                             success_url, cancel_url)
    values (${row.id}, ${row.merchantId}, ${row.livemode}, ${row.slug}, ${row.name}, ${row.description}, ${row.logoUrl},
            ${row.accentColor}, ${row.supportEmail}, ${row.successUrl}, ${row.cancelUrl})
    on conflict (merchant_id, livemode) do nothing
    returning ${storefrontColumns(db)}`;
  return inserted;
}

export async function updateStorefront(db: Db, id: string, fields: StorefrontFields): Promise<StorefrontRow> {
  const [row] = await db<StorefrontRow[]>`
    update storefronts set slug = ${fields.slug}, name = ${fields.name}, description = ${fields.description},
           logo_url = ${fields.logoUrl}, accent_color = ${fields.accentColor}, support_email = ${fields.supportEmail},
           success_url = ${fields.successUrl}, cancel_url = ${fields.cancelUrl}, updated_at = now()
    where id = ${id}
    returning ${storefrontColumns(db)}`;
  return row!;
}

export type ProductRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  name: string;
  description: string | null;
  imageUrl: string | null;
  amount: string;
  currency: string;
  planId: string | null;
  active: boolean;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export type ProductFields = Pick<ProductRow, 'name' | 'description' | 'imageUrl' | 'amount' | 'active'>;

/** A product with its plan's billing terms (null for a one-shot product), for the store page. */
export type StoreProductRow = ProductRow & {
  interval: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly' | null;
  intervalCount: number | null;
};

const productColumns = (db: Db) =>
  db`p.id, p.merchant_id as "merchantId", p.livemode, p.name, p.description, p.image_url as "imageUrl",
     p.amount::text as amount, p.currency, p.plan_id as "planId", p.active, p.archived_at as "archivedAt",
     p.created_at as "createdAt", p.updated_at as "updatedAt"`;

export async function insertProduct(
  db: Db,
  row: { id: string } & MerchantScope & ProductFields & Pick<ProductRow, 'currency' | 'planId'>,
): Promise<ProductRow> {
  const [inserted] = await db<ProductRow[]>`
    insert into products as p (id, merchant_id, livemode, name, description, image_url, amount, currency, plan_id, active)
    values (${row.id}, ${row.merchantId}, ${row.livemode}, ${row.name}, ${row.description}, ${row.imageUrl}, ${row.amount},
            ${row.currency}, ${row.planId}, ${row.active})
    returning ${productColumns(db)}`;
  return inserted!;
}

export async function findProduct(
  db: Db,
  scope: MerchantScope,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ProductRow | undefined> {
  const [row] = await db<ProductRow[]>`
    select ${productColumns(db)} from products p
    where p.id = ${id} and p.merchant_id = ${scope.merchantId} and p.livemode = ${scope.livemode}
    ${options.lock ? db`for update` : db``}`;
  return row;
}

export async function updateProduct(db: Db, id: string, fields: ProductFields): Promise<ProductRow> {
  const [row] = await db<ProductRow[]>`
    update products p set name = ${fields.name}, description = ${fields.description}, image_url = ${fields.imageUrl},
           amount = ${fields.amount}, active = ${fields.active}, updated_at = now()
    where p.id = ${id}
    returning ${productColumns(db)}`;
  return row!;
}

/** Archives a product (not yet archived); undefined when it was already archived. */
export async function archiveProduct(db: Db, id: string): Promise<ProductRow | undefined> {
  const [row] = await db<ProductRow[]>`
    update products p set archived_at = now(), active = false, updated_at = now()
    where p.id = ${id} and p.archived_at is null
    returning ${productColumns(db)}`;
  return row;
}

export async function listProducts(
  db: Db,
  scope: MerchantScope,
  page: { before?: string; limit: number; archived?: boolean; active?: boolean },
): Promise<ProductRow[]> {
  return db<ProductRow[]>`
    select ${productColumns(db)} from products p
    where p.merchant_id = ${scope.merchantId} and p.livemode = ${scope.livemode}
      ${page.before ? db`and p.id < ${page.before}` : db``}
      ${page.archived === undefined ? db`` : page.archived ? db`and p.archived_at is not null` : db`and p.archived_at is null`}
      ${page.active === undefined ? db`` : db`and p.active = ${page.active}`}
    order by p.id desc limit ${page.limit + 1}`;
}

/** The products the public page shows: active (so not archived), in the order they were added. */
export async function listStoreProducts(db: Db, scope: MerchantScope, limit: number): Promise<StoreProductRow[]> {
  return db<StoreProductRow[]>`
    select ${productColumns(db)}, sp.interval, sp.interval_count as "intervalCount"
    from products p left join subscription_plans sp on sp.id = p.plan_id
    where p.merchant_id = ${scope.merchantId} and p.livemode = ${scope.livemode} and p.active
      and sp.archived_at is null
    order by p.id limit ${limit}`;
}

/** The plan's price terms, when the plan is this merchant's in this mode. */
export async function findPlanTerms(
  db: Db,
  scope: MerchantScope,
  planId: string,
): Promise<{ id: string; amount: string; currency: string; archived: boolean } | undefined> {
  const [row] = await db<{ id: string; amount: string; currency: string; archived: boolean }[]>`
    select id, amount::text as amount, currency, archived_at is not null as archived from subscription_plans
    where id = ${planId} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}
