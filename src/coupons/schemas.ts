// Request and response shapes of coupons.
import { z } from 'zod';
import { amountString, idParam, pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { metadataField, metadataQuery } from '../http/metadata.js';
import { percentToBasisPoints } from './discount-amount.js';

export const COUPON_DURATIONS = ['once', 'repeating', 'forever'] as const;

const couponName = z.string().trim().min(1).max(200);

const percentOff = z
  .number()
  .min(0.01)
  .max(99.99)
  .refine((value) => percentToBasisPoints(value) !== undefined, 'must have at most two decimals')
  .describe(
    'Percent taken off each discounted charge, 0.01 to 99.99 with at most two decimals (kept as basis points). The charge is rounded down to a whole base unit, so the customer never pays more than the exact figure.',
  );

export const createCouponBody = z
  .object({
    name: couponName.optional().describe('Shown to the merchant and on receipts and invoices.'),
    percentOff: percentOff.optional(),
    amountOff: amountString
      .optional()
      .describe('Amount taken off each discounted charge, in USDC base units; must leave at least 1 base unit of the plan amount.'),
    currency: z.enum(['USDC']).default('USDC'),
    duration: z
      .enum(COUPON_DURATIONS)
      .describe('`once`: the next charge only; `repeating`: the next `durationInPeriods` charges; `forever`: every charge while applied.'),
    durationInPeriods: z
      .number()
      .int()
      .min(1)
      .max(1200)
      .optional()
      .describe('Required with `repeating` (and only then): how many charged periods the discount covers.'),
    maxRedemptions: z.number().int().min(1).max(1_000_000_000).optional().describe('How many times the coupon may be applied in all.'),
    redeemBy: timestamp.optional().describe('Last moment the coupon may be applied; discounts already applied keep running.'),
    appliesTo: z
      .object({ planIds: z.array(idParam('plan')).min(1).max(100) })
      .strict()
      .optional()
      .describe(
        'Only subscriptions to these plans (of the same merchant and mode) may take the coupon; after a change to another plan the discount stays attached but takes nothing off, and those periods do not count toward its duration.',
      ),
    metadata: metadataField.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.percentOff === undefined) === (body.amountOff === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'exactly one of percentOff and amountOff is required' });
    }
    if ((body.duration === 'repeating') !== (body.durationInPeriods !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['durationInPeriods'], message: 'durationInPeriods is required with repeating, and only then' });
    }
  });

export const coupon = z
  .object({
    id: z.string(),
    object: z.literal('coupon'),
    name: z.string().nullable(),
    percentOff: z.number().nullable().describe('Percent off (at most two decimals); null for an amount-off coupon.'),
    amountOff: z.string().nullable().describe('USDC base units off each discounted charge; null for a percent-off coupon.'),
    currency: z.string(),
    duration: z.enum(COUPON_DURATIONS),
    durationInPeriods: z.number().int().nullable(),
    maxRedemptions: z.number().int().nullable(),
    timesRedeemed: z.number().int().describe('Times applied (directly or through its promotion codes).'),
    redeemBy: timestamp.nullable(),
    appliesTo: z.object({ planIds: z.array(z.string()) }).nullable(),
    valid: z.boolean().describe('Whether it can still be applied (not past redeemBy, not used up).'),
    metadata: z.object({}).catchall(z.string()).describe("The merchant's key-value pairs."),
    livemode: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Coupon' });

/** Only the name and metadata may change: the terms are what discounts already applied were given. */
export const updateCouponBody = z
  .object({
    name: couponName.optional(),
    metadata: metadataField.optional().describe('Merged into the stored metadata; a key sent as "" is removed.'),
  })
  .strict();

export const deletedCoupon = z
  .object({ id: z.string(), object: z.literal('coupon'), deleted: z.literal(true) })
  .meta({ id: 'DeletedCoupon' });

export const couponParams = z.object({ id: pathId('coupon') });
export const couponList = listOf(coupon);
export const couponListQuery = listQueryOf('coupon').extend({ metadata: metadataQuery });

export type CreateCouponBody = z.infer<typeof createCouponBody>;
export type Coupon = z.infer<typeof coupon>;
export type UpdateCouponBody = z.infer<typeof updateCouponBody>;
export type CouponListQuery = z.infer<typeof couponListQuery>;
