// SQL for coupons. The redemption counter moves only by a conditional UPDATE (see redeemCoupon).
import type { Db } from '../db/client.js';
import { metadataSql } from '../http/metadata.js';
import type { MerchantScope } from '../http/principal.js';

export type CouponDuration = 'once' | 'repeating' | 'forever';

export type CouponRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  name: string | null;
  percentOffBp: number | null;
  amountOff: string | null;
  currency: string;
  duration: CouponDuration;
  durationInPeriods: number | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  redeemBy: Date | null;
  appliesToPlanIds: string[] | null;
  metadata: Record<string, string>;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, name, percent_off_bp as "percentOffBp", amount_off::text as "amountOff", currency,
     duration, duration_in_periods as "durationInPeriods", max_redemptions as "maxRedemptions", times_redeemed as "timesRedeemed",
     redeem_by as "redeemBy", applies_to_plan_ids as "appliesToPlanIds", metadata, deleted_at as "deletedAt",
     created_at as "createdAt", updated_at as "updatedAt"`;

export type NewCoupon = Omit<CouponRow, 'timesRedeemed' | 'deletedAt' | 'createdAt' | 'updatedAt'>;

export async function insertCoupon(db: Db, c: NewCoupon): Promise<CouponRow> {
  const [row] = await db<CouponRow[]>`
    insert into coupons (id, merchant_id, livemode, name, percent_off_bp, amount_off, currency, duration, duration_in_periods,
      max_redemptions, redeem_by, applies_to_plan_ids, metadata)
    values (${c.id}, ${c.merchantId}, ${c.livemode}, ${c.name}, ${c.percentOffBp}, ${c.amountOff}, ${c.currency}, ${c.duration},
      ${c.durationInPeriods}, ${c.maxRedemptions}, ${c.redeemBy}, ${c.appliesToPlanIds}::text[], ${db.json(c.metadata as never)})
    returning ${columns(db)}`;
  return row!;
}

/** A coupon of the scope not deleted (`withDeleted`: deleted ones too, for discounts that still run on them). */
export async function findCoupon(
  db: Db,
  scope: MerchantScope,
  id: string,
  options: { lock?: boolean; withDeleted?: boolean } = {},
): Promise<CouponRow | undefined> {
  const [row] = await db<CouponRow[]>`
    select ${columns(db)} from coupons
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${options.withDeleted ? db`` : db`and deleted_at is null`}
    ${options.lock ? db`for update` : db``}`;
  return row;
}

export async function updateCoupon(
  db: Db,
  id: string,
  change: { name: string | null; metadata: Record<string, string> },
): Promise<CouponRow> {
  const [row] = await db<CouponRow[]>`
    update coupons set name = ${change.name}, metadata = ${db.json(change.metadata as never)}, updated_at = now()
    where id = ${id} returning ${columns(db)}`;
  return row!;
}

/** Soft delete: no new redemptions; discounts already applied keep running on it. */
export async function deleteCoupon(db: Db, id: string): Promise<void> {
  await db`update coupons set deleted_at = now(), updated_at = now() where id = ${id} and deleted_at is null`;
}

export async function listCoupons(
  db: Db,
  scope: MerchantScope,
  page: { before?: string; limit: number; metadata?: Record<string, string> },
): Promise<CouponRow[]> {
  return db<CouponRow[]>`
    select ${columns(db)} from coupons
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and deleted_at is null
      ${metadataSql(db, 'metadata', page.metadata)}
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

/**
 * Counts one redemption if the coupon can still be redeemed at `now`: one conditional UPDATE, so of
 * concurrent redemptions of the last one exactly one gets the row back. Undefined: not redeemable.
 */
export async function redeemCoupon(db: Db, id: string, now: Date): Promise<CouponRow | undefined> {
  const [row] = await db<CouponRow[]>`
    update coupons set times_redeemed = times_redeemed + 1, updated_at = now()
    where id = ${id} and deleted_at is null
      and (max_redemptions is null or times_redeemed < max_redemptions)
      and (redeem_by is null or redeem_by > ${now})
    returning ${columns(db)}`;
  return row;
}
