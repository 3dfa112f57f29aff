// Request and response shapes of a subscription's discount (a coupon applied to it).
import { z } from 'zod';
import { idParam, timestamp } from '../http/schemas.js';
import { COUPON_DURATIONS } from '../coupons/schemas.js';

export const discount = z
  .object({
    id: z.string().describe('The discount id (prefix `di_`).'),
    object: z.literal('discount'),
    coupon: z
      .object({
        id: z.string(),
        name: z.string().nullable(),
        percentOff: z.number().nullable(),
        amountOff: z.string().nullable(),
        duration: z.enum(COUPON_DURATIONS),
        durationInPeriods: z.number().int().nullable(),
      })
      .describe("The coupon's terms the discount runs on."),
    promotionCode: z.string().nullable().describe('The promotion code id it was redeemed through, if any.'),
    start: timestamp.describe('When it was applied (the test clock’s time on a clock).'),
    end: timestamp
      .nullable()
      .describe(
        'Calendar start of the first period charged in full, if no period is skipped (a paused period is not charged and does not count); null for `forever`.',
      ),
    periodsRemaining: z
      .number()
      .int()
      .nullable()
      .describe('Charged periods still discounted; null for `forever`. The discount ends after the last one.'),
  })
  .meta({ id: 'Discount' });

/** POST /v1/subscriptions/{id}/discount: exactly one of the two. */
export const applyDiscountBody = z
  .object({
    coupon: idParam('coupon').optional().describe('Apply this coupon directly.'),
    promotionCode: idParam('promotionCode').optional().describe('Redeem this promotion code (its id) for the coupon it carries.'),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.coupon === undefined) === (body.promotionCode === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['coupon'], message: 'exactly one of coupon and promotionCode is required' });
    }
  });

export type Discount = z.infer<typeof discount>;
export type ApplyDiscountBody = z.infer<typeof applyDiscountBody>;
