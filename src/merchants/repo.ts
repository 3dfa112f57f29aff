// SQL for merchants.
import type { Db } from '../db/client.js';

export type MerchantRow = { id: string; name: string; email: string | null; apiVersion: string; createdAt: Date };

const columns = (db: Db) => db`id, name, email, api_version as "apiVersion", created_at as "createdAt"`;

export async function insertMerchant(db: Db, merchant: Omit<MerchantRow, 'createdAt'>): Promise<MerchantRow> {
  const [row] = await db<MerchantRow[]>`
    insert into merchants (id, name, email, api_version)
    values (${merchant.id}, ${merchant.name}, ${merchant.email}, ${merchant.apiVersion})
    returning ${columns(db)}`;
  return row!;
}

export async function findMerchant(db: Db, id: string): Promise<MerchantRow | undefined> {
  const [row] = await db<MerchantRow[]>`select ${columns(db)} from merchants where id = ${id}`;
  return row;
}

export async function setPinnedApiVersion(db: Db, id: string, apiVersion: string): Promise<void> {
  await db`update merchants set api_version = ${apiVersion} where id = ${id}`;
}

/** The merchant (and mode) that owns an on-chain payout address, if any. */
export async function findMerchantByChainAddress(
  db: Db,
  livemode: boolean,
  address: string,
): Promise<{ merchantId: string; gracePeriodHours: number } | undefined> {
  const [row] = await db<{ merchantId: string; gracePeriodHours: number }[]>`
    select a.merchant_id as "merchantId", m.subscription_grace_period_hours as "gracePeriodHours"
    from merchant_chain_addresses a join merchants m on m.id = a.merchant_id
    where a.livemode = ${livemode} and a.address = ${address.toLowerCase()}`;
  return row;
}

/** Registers a payout address of a merchant; registering the same one again is a no-op. */
export async function addMerchantChainAddress(db: Db, input: { merchantId: string; livemode: boolean; address: string }): Promise<void> {
  await db`
    insert into merchant_chain_addresses (merchant_id, livemode, address)
    values (${input.merchantId}, ${input.livemode}, ${input.address.toLowerCase()})
    on conflict (livemode, address) do nothing`;
}

export async function findSubscriptionGracePeriodHours(db: Db, merchantId: string): Promise<number> {
  const [row] = await db<{ hours: number }[]>`select subscription_grace_period_hours as hours from merchants where id = ${merchantId}`;
  return row?.hours ?? 72;
}

export async function setSubscriptionGracePeriodHours(db: Db, merchantId: string, hours: number): Promise<void> {
  await db`update merchants set subscription_grace_period_hours = ${hours} where id = ${merchantId}`;
}
