// SQL for customers: one per (merchant, mode, wallet address), from subscriptions and one-off payments.
import type { Db } from '../db/client.js';
import { createdRangeSql, lowerPrefixPattern, type CreatedRange } from '../http/list-filters.js';
import { metadataSql } from '../http/metadata.js';

export type CustomerRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  walletAddress: string;
  email: string | null;
  createdAt: Date;
};

/** The customer of a wallet, created on first sight; an email, when known, is kept. */
export async function upsertCustomer(
  db: Db,
  input: { id: string; merchantId: string; livemode: boolean; walletAddress: string; email?: string | null },
): Promise<CustomerRow> {
  const [row] = await db<CustomerRow[]>`
    insert into customers (id, merchant_id, livemode, wallet_address, email)
    values (${input.id}, ${input.merchantId}, ${input.livemode}, ${input.walletAddress.toLowerCase()}, ${input.email ?? null})
    on conflict (merchant_id, livemode, wallet_address)
      do update set email = coalesce(excluded.email, customers.email)
    returning id, merchant_id as "merchantId", livemode, wallet_address as "walletAddress", email, created_at as "createdAt"`;
  return row!;
}

/**
 * The customer of a wallet that paid a one-off payment, created on first sight. An email typed at checkout is
 * kept only where the customer has none (unverified: it never replaces one, nor picks the customer).
 */
export async function customerOfPayingWallet(
  db: Db,
  input: { id: string; merchantId: string; livemode: boolean; walletAddress: string; email: string | null },
): Promise<string> {
  const [row] = await db<{ id: string }[]>`
    insert into customers (id, merchant_id, livemode, wallet_address, email)
    values (${input.id}, ${input.merchantId}, ${input.livemode}, ${input.walletAddress.toLowerCase()}, ${input.email})
    on conflict (merchant_id, livemode, wallet_address) do update set email = coalesce(customers.email, excluded.email)
    returning id`;
  return row!.id;
}

/** A customer with the counts the customer list shows. */
export type CustomerSummaryRow = CustomerRow & {
  subscriptionCount: number;
  activeSubscriptionCount: number;
  lastSubscribedAt: Date | null;
  succeededChargeCount: number;
  completedPaymentCount: number;
  metadata: Record<string, string>;
};

const summaryColumns = (db: Db) =>
  db`c.id, c.merchant_id as "merchantId", c.livemode, c.wallet_address as "walletAddress", c.email, c.created_at as "createdAt", c.metadata,
     coalesce(s.total, 0)::int as "subscriptionCount", coalesce(s.open, 0)::int as "activeSubscriptionCount",
     s.last_created as "lastSubscribedAt", coalesce(ch.succeeded, 0)::int as "succeededChargeCount",
     coalesce(ps.completed, 0)::int as "completedPaymentCount"`;

// Counted per customer of the page only (at most 101 rows), through its subscriptions and its one-off payments.
const summaryJoins = (db: Db) =>
  db`left join lateral (
       select count(*) as total,
              count(*) filter (where status in ('trialing', 'active', 'at_risk', 'paused')) as open,
              max(created_at) as last_created
       from subscriptions where customer_id = c.id
     ) s on true
     left join lateral (
       select count(*) as succeeded from subscription_charges sc
       join subscriptions sub on sub.id = sc.subscription_id
       where sub.customer_id = c.id and sc.status = 'succeeded'
     ) ch on true
     left join lateral (
       select count(*) as completed from payment_sessions p where p.customer_id = c.id and p.status = 'completed'
     ) ps on true`;

export async function listCustomers(
  db: Db,
  scope: { merchantId: string; livemode: boolean },
  filter: CreatedRange & {
    walletAddress?: string;
    email?: string;
    q?: string;
    metadata?: Record<string, string>;
    before?: string;
    limit: number;
  },
): Promise<CustomerSummaryRow[]> {
  return db<CustomerSummaryRow[]>`
    select ${summaryColumns(db)} from customers c ${summaryJoins(db)}
    where c.merchant_id = ${scope.merchantId} and c.livemode = ${scope.livemode}
      ${filter.walletAddress ? db`and c.wallet_address = ${filter.walletAddress.toLowerCase()}` : db``}
      ${filter.email ? db`and lower(c.email) = ${filter.email.toLowerCase()}` : db``}
      ${metadataSql(db, 'c.metadata', filter.metadata)}
      ${createdRangeSql(db, 'c.created_at', filter)}
      ${filter.q ? db`and (c.id = ${filter.q} or c.wallet_address = ${filter.q.toLowerCase()} or lower(c.email) like ${lowerPrefixPattern(filter.q)})` : db``}
      ${filter.before ? db`and c.id < ${filter.before}` : db``}
    order by c.id desc limit ${filter.limit + 1}`;
}

export async function findCustomer(
  db: Db,
  scope: { merchantId: string; livemode: boolean },
  id: string,
): Promise<CustomerSummaryRow | undefined> {
  const [row] = await db<CustomerSummaryRow[]>`
    select ${summaryColumns(db)} from customers c ${summaryJoins(db)}
    where c.id = ${id} and c.merchant_id = ${scope.merchantId} and c.livemode = ${scope.livemode}`;
  return row;
}

/**
 * A customer moved to another wallet (a wallet change of their subscription, src/subscription-plan-changes): their
 * wallet becomes `to` when it is still `from` and no other customer of the merchant and mode holds `to`. Whether it moved.
 */
export async function moveCustomerWallet(db: Db, id: string, wallets: { from: string; to: string }): Promise<boolean> {
  const rows = await db`
    update customers c set wallet_address = ${wallets.to.toLowerCase()}
    where c.id = ${id} and c.wallet_address = ${wallets.from.toLowerCase()}
      and not exists (select 1 from customers o where o.merchant_id = c.merchant_id and o.livemode = c.livemode
                      and o.wallet_address = ${wallets.to.toLowerCase()})`;
  return rows.count === 1;
}
