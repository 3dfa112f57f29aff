// SQL for promotion codes. The redemption counter moves only by a conditional UPDATE (see redeemPromotionCode).
import type { Db } from '../db/client.js';
import { metadataSql } from '../http/metadata.js';
import type { MerchantScope } from '../http/principal.js';

export type PromotionCodeRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  couponId: string;
  code: string;
  active: boolean;
  expiresAt: Date | null;
  firstTimeTransaction: boolean;
  maxRedemptions: number | null;
  timesRedeemed: number;
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, coupon_id as "couponId", code, active, expires_at as "expiresAt",
     first_time_transaction as "firstTimeTransaction", max_redemptions as "maxRedemptions", times_redeemed as "timesRedeemed",
     metadata, created_at as "createdAt", updated_at as "updatedAt"`;

export type NewPromotionCode = Omit<PromotionCodeRow, 'timesRedeemed' | 'createdAt' | 'updatedAt'>;

/** Undefined when the code is taken (any letter case) in the merchant's mode. */
export async function insertPromotionCode(db: Db, p: NewPromotionCode): Promise<PromotionCodeRow | undefined> {
  const [row] = await db<PromotionCodeRow[]>`
    insert into promotion_codes (id, merchant_id, livemode, coupon_id, code, active, expires_at, first_time_transaction, max_redemptions, metadata)
    values (${p.id}, ${p.merchantId}, ${p.livemode}, ${p.couponId}, ${p.code}, ${p.active}, ${p.expiresAt}, ${p.firstTimeTransaction},
      ${p.maxRedemptions}, ${db.json(p.metadata as never)})
    on conflict (merchant_id, livemode, lower(code)) do nothing
    returning ${columns(db)}`;
  return row;
}

export async function findPromotionCode(
  db: Db,
  scope: MerchantScope,
  id: string,
  options: { lock?: boolean } = {},
): Promise<PromotionCodeRow | undefined> {
  const [row] = await db<PromotionCodeRow[]>`
    select ${columns(db)} from promotion_codes
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
    ${options.lock ? db`for update` : db``}`;
  return row;
}

/** By the text a customer typed, any letter case. */
export async function findPromotionCodeByCode(db: Db, scope: MerchantScope, code: string): Promise<PromotionCodeRow | undefined> {
  const [row] = await db<PromotionCodeRow[]>`
    select ${columns(db)} from promotion_codes
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and lower(code) = lower(${code})`;
  return row;
}

export async function updatePromotionCode(
  db: Db,
  id: string,
  change: { active: boolean; metadata: Record<string, string> },
): Promise<PromotionCodeRow> {
  const [row] = await db<PromotionCodeRow[]>`
    update promotion_codes set active = ${change.active}, metadata = ${db.json(change.metadata as never)}, updated_at = now()
    where id = ${id} returning ${columns(db)}`;
  return row!;
}

export async function listPromotionCodes(
  db: Db,
  scope: MerchantScope,
  page: { before?: string; limit: number; code?: string; couponId?: string; active?: boolean; metadata?: Record<string, string> },
): Promise<PromotionCodeRow[]> {
  return db<PromotionCodeRow[]>`
    select ${columns(db)} from promotion_codes
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.before ? db`and id < ${page.before}` : db``}
      ${page.code === undefined ? db`` : db`and lower(code) = lower(${page.code})`}
      ${page.couponId === undefined ? db`` : db`and coupon_id = ${page.couponId}`}
      ${page.active === undefined ? db`` : db`and active = ${page.active}`}
      ${metadataSql(db, 'metadata', page.metadata)}
    order by id desc limit ${page.limit + 1}`;
}

/**
 * Counts one redemption if the code can still be redeemed at `now`: one conditional UPDATE, so of
 * concurrent redemptions of the last one exactly one gets the row back. Undefined: not redeemable.
 */
export async function redeemPromotionCode(db: Db, id: string, now: Date): Promise<PromotionCodeRow | undefined> {
  const [row] = await db<PromotionCodeRow[]>`
    update promotion_codes set times_redeemed = times_redeemed + 1, updated_at = now()
    where id = ${id} and active
      and (max_redemptions is null or times_redeemed < max_redemptions)
      and (expires_at is null or expires_at > ${now})
    returning ${columns(db)}`;
  return row;
}

/**
 * A first-time customer of the merchant in this mode: no subscription of the wallet's has been
 * charged, and no payment session was paid from the wallet.
 */
export async function isFirstTimeWallet(db: Db, scope: MerchantScope, walletAddress: string): Promise<boolean> {
  const [row] = await db<{ seen: boolean }[]>`
    select exists (
      select 1 from subscription_charges ch join subscriptions s on s.id = ch.subscription_id
      where s.merchant_id = ${scope.merchantId} and s.livemode = ${scope.livemode}
        and s.subscriber_address = ${walletAddress.toLowerCase()} and ch.status = 'succeeded'
    ) or exists (
      select 1 from payment_sessions p
      where p.merchant_id = ${scope.merchantId} and p.livemode = ${scope.livemode}
        and lower(p.payer) = ${walletAddress.toLowerCase()} and p.status = 'completed'
    ) as seen`;
  return !row!.seen;
}
