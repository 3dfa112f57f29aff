// Request and response shapes of promotion codes.
import { z } from 'zod';
import { idParam, pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { metadataField, metadataQuery } from '../http/metadata.js';

export const PROMOTION_CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;

export const promotionCodeText = z
  .string()
  .regex(PROMOTION_CODE_PATTERN, 'must be 3 to 64 letters, digits, "-" or "_"')
  .describe('The code a customer types, 3 to 64 letters, digits, "-" or "_"; matched case-insensitively.');

export const createPromotionCodeBody = z
  .object({
    coupon: idParam('coupon').describe('The coupon the code applies.'),
    code: promotionCodeText
      .optional()
      .describe('Unique per merchant and mode whatever the case; absent: a random 8-character code is generated.'),
    active: z.boolean().default(true),
    expiresAt: timestamp.optional().describe('After this moment the code is refused.'),
    firstTimeTransaction: z
      .boolean()
      .default(false)
      .describe(
        "Only for first-time customers: a wallet none of the merchant's subscriptions in this mode has charged and that has paid no payment session.",
      ),
    maxRedemptions: z.number().int().min(1).max(1_000_000_000).optional().describe('How many times this code may be redeemed.'),
    metadata: metadataField.optional(),
  })
  .strict();

export const promotionCode = z
  .object({
    id: z.string(),
    object: z.literal('promotion_code'),
    code: z.string(),
    coupon: z.string().describe('The coupon id.'),
    active: z.boolean(),
    expiresAt: timestamp.nullable(),
    firstTimeTransaction: z.boolean(),
    maxRedemptions: z.number().int().nullable(),
    timesRedeemed: z.number().int(),
    metadata: z.object({}).catchall(z.string()).describe("The merchant's key-value pairs."),
    livemode: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'PromotionCode' });

export const updatePromotionCodeBody = z
  .object({
    active: z.boolean().optional().describe('An inactive code is refused; it can be made active again.'),
    metadata: metadataField.optional().describe('Merged into the stored metadata; a key sent as "" is removed.'),
  })
  .strict();

export const promotionCodeParams = z.object({ id: pathId('promotionCode') });
export const promotionCodeList = listOf(promotionCode);
export const promotionCodeListQuery = listQueryOf('promotionCode').extend({
  code: z.string().min(1).max(64).optional().describe('Only the code with this text (any letter case).'),
  coupon: idParam('coupon').optional().describe('Only codes of this coupon.'),
  active: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('`true`: only active codes; `false`: only inactive ones. Absent: all.'),
  metadata: metadataQuery,
});

export type CreatePromotionCodeBody = z.infer<typeof createPromotionCodeBody>;
export type PromotionCode = z.infer<typeof promotionCode>;
export type UpdatePromotionCodeBody = z.infer<typeof updatePromotionCodeBody>;
export type PromotionCodeListQuery = z.infer<typeof promotionCodeListQuery>;
