// Response shapes of subscription charges.
import { z } from 'zod';
import { chainIdQuery, idParam, pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';

export const subscriptionCharge = z
  .object({
    id: z.string(),
    object: z.literal('subscription_charge'),
    subscriptionId: z.string(),
    chainId: z.number().int().describe("The chain the charge is sent on (EIP-155 id): always its subscription's."),
    periodIndex: z.number().int().describe('The 0-based period this charge is for; at most one charge per period.'),
    periodStart: timestamp,
    amount: z.string().describe('What the period pulls (after the discount line, if any), in base units.'),
    subtotal: z.string().describe('The full amount of the period before any discount: `amount` plus `discount.amountOff`.'),
    discount: z
      .object({
        discount: z.string().describe('The discount id (`di_`).'),
        coupon: z.string().describe('The coupon id.'),
        promotionCode: z.string().nullable(),
        name: z.string().nullable().describe("The coupon's name, the line's label."),
        amountOff: z.string().describe('What the discount took off this period, in base units.'),
      })
      .nullable()
      .describe('The discount line of the charge; null: charged in full.'),
    lines: z
      .array(
        z.object({
          kind: z.enum(['subscription', 'discount']),
          description: z.string().describe("The plan's name, or `Discount (<coupon name>, 20% off)`."),
          amount: z.string().describe('Base units; a discount line is negative (`-2000000`).'),
        }),
      )
      .describe("The charge as its receipt lists it: the plan's full amount, then the discount line if any; they sum to `amount`."),
    currency: z.string(),
    status: z
      .enum(['pending', 'succeeded', 'failed'])
      .describe("`failed` is the latest attempt's outcome; a later retry may still succeed."),
    attempts: z.number().int().describe('How many times this period has been attempted.'),
    transactionHash: z.string().nullable(),
    blockNumber: z.string().nullable(),
    failureCode: z
      .string()
      .nullable()
      .describe(
        'Why the last attempt failed: insufficient_funds, insufficient_allowance, cancelled_on_chain, period_beyond_term, amount_exceeds_terms, not_operator.',
      ),
    failureReason: z.string().nullable(),
    attemptedAt: timestamp.nullable(),
    settledAt: timestamp.nullable(),
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'SubscriptionCharge' });

export const chargeParams = z.object({ id: pathId('subscriptionCharge') });
export const chargeList = listOf(subscriptionCharge);
export const chargeListQuery = listQueryOf('subscriptionCharge').extend({
  subscriptionId: idParam('subscription').optional(),
  chainId: chainIdQuery.describe("Only charges on this chain (EIP-155 id): their subscription's."),
});

export type SubscriptionCharge = z.infer<typeof subscriptionCharge>;
export type ChargeListQuery = z.infer<typeof chargeListQuery>;
