// SQL for customers: one per (merchant, mode, wallet address).
import type { Db } from '../db/client.js';

export type CustomerRow = { id: string; merchantId: string; livemode: boolean; walletAddress: string; email: string | null; createdAt: Date };

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
