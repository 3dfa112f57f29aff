// Coupons: what a discount takes off and for how many charged periods. Terms never change once
// created (discounts applied already run on them); only the name and metadata do.
import type { Db, Sql } from '../db/client.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import { mergeMetadata } from '../http/metadata.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import { findPlan } from '../subscription-plans/repo.js';
import { basisPointsToPercent, percentToBasisPoints } from './discount-amount.js';
import * as repo from './repo.js';
import type { Coupon, CouponListQuery, CreateCouponBody, UpdateCouponBody } from './schemas.js';

export function renderCoupon(row: repo.CouponRow, now: Date = new Date()): Coupon {
  const usedUp = row.maxRedemptions !== null && row.timesRedeemed >= row.maxRedemptions;
  const expired = row.redeemBy !== null && row.redeemBy.getTime() <= now.getTime();
  return {
    id: row.id,
    object: 'coupon',
    name: row.name,
    percentOff: row.percentOffBp === null ? null : basisPointsToPercent(row.percentOffBp),
    amountOff: row.amountOff,
    currency: row.currency,
    duration: row.duration,
    durationInPeriods: row.durationInPeriods,
    maxRedemptions: row.maxRedemptions,
    timesRedeemed: row.timesRedeemed,
    redeemBy: row.redeemBy?.toISOString() ?? null,
    appliesTo: row.appliesToPlanIds === null ? null : { planIds: row.appliesToPlanIds },
    valid: row.deletedAt === null && !usedUp && !expired,
    metadata: row.metadata,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const couponNotFound = (id: string, param = 'id') => new NotFoundError(`No such coupon: ${id}.`, { param });

/** Every plan a coupon is restricted to must be the merchant's, in the same mode; repeats are dropped. */
async function restrictedPlans(db: Db, scope: MerchantScope, planIds: string[] | undefined): Promise<string[] | null> {
  if (!planIds) return null;
  const unique = [...new Set(planIds)];
  for (const [i, planId] of planIds.entries()) {
    if (!(await findPlan(db, scope, planId))) {
      throw new InvalidRequestError(`No such subscription plan: ${planId}.`, { param: `appliesTo.planIds.${i}` });
    }
  }
  return unique;
}

export function createCouponService({ sql, events }: { sql: Sql; events: EventDispatcher }) {
  return {
    async create(scope: MerchantScope, input: CreateCouponBody): Promise<Coupon> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const coupon = renderCoupon(
          await repo.insertCoupon(tx, {
            id: newId('coupon'),
            ...scope,
            name: input.name ?? null,
            percentOffBp: input.percentOff === undefined ? null : percentToBasisPoints(input.percentOff)!,
            amountOff: input.amountOff ?? null,
            currency: input.currency,
            duration: input.duration,
            durationInPeriods: input.durationInPeriods ?? null,
            maxRedemptions: input.maxRedemptions ?? null,
            redeemBy: input.redeemBy ? new Date(input.redeemBy) : null,
            appliesToPlanIds: await restrictedPlans(tx, scope, input.appliesTo?.planIds),
            metadata: input.metadata ?? {},
          }),
        );
        await record({ ...scope, type: 'coupon.created', data: { object: coupon } });
        return coupon;
      });
    },

    async get(scope: MerchantScope, id: string): Promise<Coupon> {
      const row = await repo.findCoupon(sql, scope, id);
      if (!row) throw couponNotFound(id);
      return renderCoupon(row);
    },

    async list(scope: MerchantScope, query: CouponListQuery): Promise<Page<Coupon>> {
      const rows = await repo.listCoupons(sql, scope, {
        before: decodeCursor(query.cursor),
        limit: query.limit,
        metadata: query.metadata,
      });
      return toPage(rows, query.limit, (row) => renderCoupon(row));
    },

    /** Name and metadata only; a call that changes nothing records no event. */
    async update(scope: MerchantScope, id: string, input: UpdateCouponBody): Promise<Coupon> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const current = await repo.findCoupon(tx, scope, id, { lock: true });
        if (!current) throw couponNotFound(id);
        const name = input.name ?? current.name;
        const metadata = input.metadata ? mergeMetadata(current.metadata, input.metadata) : current.metadata;
        if (name === current.name && JSON.stringify(metadata) === JSON.stringify(current.metadata)) return renderCoupon(current);
        const coupon = renderCoupon(await repo.updateCoupon(tx, id, { name, metadata }));
        await record({ ...scope, type: 'coupon.updated', data: { object: coupon } });
        return coupon;
      });
    },

    /** No new redemptions (its promotion codes stop too); discounts already applied keep running. */
    async remove(scope: MerchantScope, id: string): Promise<{ id: string; object: 'coupon'; deleted: true }> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const current = await repo.findCoupon(tx, scope, id, { lock: true });
        if (!current) throw couponNotFound(id);
        await repo.deleteCoupon(tx, id);
        const deleted = (await repo.findCoupon(tx, scope, id, { withDeleted: true }))!;
        await record({ ...scope, type: 'coupon.deleted', data: { object: renderCoupon(deleted) } });
        return { id, object: 'coupon' as const, deleted: true as const };
      });
    },
  };
}

export type CouponService = ReturnType<typeof createCouponService>;
