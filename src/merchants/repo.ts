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

/** Where the merchant receives funds (the relay pays only to it); set by business onboarding and the dev seed. */
export async function setPayoutAddress(db: Db, id: string, payoutAddress: string | null): Promise<void> {
  await db`update merchants set payout_address = ${payoutAddress} where id = ${id}`;
}
