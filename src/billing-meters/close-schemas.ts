// The API shape of a metered subscription's period close (src/billing-meters/period-close.ts; docs/metered-billing.md).
import { z } from 'zod';
import { listOf, listQueryOf } from '../http/pagination.js';
import { timestamp } from '../http/schemas.js';

const tierCharge = z.object({
  tier: z.number().int(),
  quantity: z.string(),
  unitAmount: z.string(),
  flatAmount: z.string(),
  amount: z.string().describe("The tier's exact amount in base units (may carry decimals; the line is rounded once)."),
});

const closeLine = z
  .object({
    type: z
      .enum(['fixed', 'discount', 'proration', 'usage'])
      .describe(
        "`fixed`: the period's price, in advance; `discount`: a coupon's share of it (negative); `proration`: a plan change's; `usage`: one meter's usage of the period before, in arrears.",
      ),
    description: z.string(),
    amount: z.string().describe('Base units, an integer string (negative for a discount).'),
    discountId: z.string().optional(),
    meterId: z.string().optional(),
    model: z.enum(['per_unit', 'package', 'graduated', 'volume']).optional(),
    quantity: z.string().optional().describe("The meter's aggregation over the usage window (exact decimal)."),
    packages: z.string().optional(),
    tiers: z.array(tierCharge).optional(),
  })
  .meta({ id: 'SubscriptionPeriodCloseLine' });

export const subscriptionPeriodClose = z
  .object({
    id: z.string(),
    object: z.literal('subscription_period_close'),
    subscriptionId: z.string(),
    periodIndex: z.number().int().describe('The period whose charge this close is (its fixed price in advance).'),
    usageStart: timestamp.nullable().describe('Start of the usage billed (the period before); null for period 0.'),
    usageEnd: timestamp.nullable().describe('End (exclusive) of the usage billed.'),
    lines: z.array(closeLine),
    total: z.string(),
    charged: z.string().describe('Pulled on chain with the period: min(total, the cap the subscriber authorised).'),
    remainder: z.string().describe('total - charged: billed by the open invoice `remainderInvoiceId`.'),
    remainderInvoiceId: z.string().nullable(),
    final: z
      .boolean()
      .describe(
        "The close of a cancelled subscription's last usage (its last charged period up to the cancel): usage lines only, nothing pulled, the whole total invoiced.",
      ),
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'SubscriptionPeriodClose' });

export const subscriptionPeriodCloseList = listOf(subscriptionPeriodClose);
export const subscriptionPeriodCloseListQuery = listQueryOf('usageClose');
export type SubscriptionPeriodCloseListQuery = z.infer<typeof subscriptionPeriodCloseListQuery>;

export const upcomingInvoice = z
  .object({
    object: z.literal('upcoming_invoice'),
    subscriptionId: z.string(),
    periodIndex: z.number().int().describe('The period the next charge is for (its fixed price in advance).'),
    nextChargeAt: timestamp.describe('When the next charge is due (a metered plan closes after its usage grace).'),
    usageStart: timestamp.nullable().describe('Start of the usage the next charge bills (the current period); null: none.'),
    usageEnd: timestamp.nullable().describe('End (exclusive) of that usage window.'),
    lines: z.array(closeLine).describe('The lines the next charge would have if usage stopped now: the same code as the period close.'),
    total: z.string(),
    cap: z.string().describe('What the subscriber authorised per period on chain.'),
    amountToCharge: z.string().describe('What the charge would pull: min(total, cap).'),
    remainder: z.string().describe('total - amountToCharge: what an open invoice would bill.'),
    closed: z
      .boolean()
      .describe("true: the period is closed already (its charge is being retried) and these are the close's frozen amounts."),
    livemode: z.boolean(),
  })
  .meta({
    id: 'UpcomingInvoice',
    examples: [
      {
        object: 'upcoming_invoice',
        subscriptionId: 'sub_01JD5W3M6Q8X2K7Y9Z0A1B2C3D',
        periodIndex: 2,
        nextChargeAt: '2026-12-01T00:00:00.000Z',
        usageStart: '2026-11-01T00:00:00.000Z',
        usageEnd: '2026-12-01T00:00:00.000Z',
        lines: [
          { type: 'fixed', description: 'API, period 3', amount: '10000000' },
          {
            type: 'usage',
            description: 'API calls: 12140 units',
            meterId: 'mtr_01JD5W3M6Q8X2K7Y9Z0A1B2C3E',
            model: 'per_unit',
            quantity: '12140',
            amount: '24280000',
          },
        ],
        total: '34280000',
        cap: '30000000',
        amountToCharge: '30000000',
        remainder: '4280000',
        closed: false,
        livemode: false,
      },
    ],
  });
