// Request and response shapes of subscription plans.
import { z } from 'zod';
import { amountString, chainIdField, optionalBody, pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { checkMeteredPlan, meteredPlanFields, meteredPriceInput } from './metered-prices.js';

export const PLAN_INTERVALS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export const SUPPORTED_CURRENCIES = ['USDC'] as const;

const planName = z.string().trim().min(1).max(200);

/** What a refused first charge after a trial does (docs/decisions.md, "Cancel at period end and trial rules"). */
export const TRIAL_END_BEHAVIORS = ['dunning', 'cancel', 'pause'] as const;
export type TrialEndBehavior = (typeof TRIAL_END_BEHAVIORS)[number];
const trialEndBehavior = z
  .enum(TRIAL_END_BEHAVIORS)
  .describe(
    "When the trial ends and the first charge is refused for funds or allowance: `dunning` retries within the merchant's grace window (`at_risk`, then `lapsed`), `cancel` cancels the subscription at once (on chain too; `subscription.cancelled`, `cancelledBy: system`), `pause` pauses it (`paused`; resuming charges the next period that comes due). A charge refused for another cause (a blacklisted address, a paused token) follows its usual rule.",
  );

export const createPlanBody = z
  .object({
    name: planName,
    amount: amountString.describe('Charge per period in USDC base units (6 decimals), e.g. "10000000" is 10 USDC.'),
    currency: z.enum(SUPPORTED_CURRENCIES).default('USDC'),
    interval: z.enum(PLAN_INTERVALS),
    intervalCount: z.number().int().min(1).max(365).default(1),
    trialPeriodDays: z.number().int().min(0).max(730).default(0),
    trialEndBehavior: trialEndBehavior
      .optional()
      .describe(`${trialEndBehavior.description} Default \`dunning\` (the behaviour before the option existed).`),
    chainIds: z
      .array(chainIdField)
      .min(1)
      .max(32)
      .optional()
      .describe(
        "The chains of the mode (EIP-155 ids) the plan is offered on, the first the hosted enrolment page's default; the customer picks one at enrolment. Absent: every chain of the mode (chains configured later too).",
      ),
    ...meteredPlanFields,
  })
  .strict()
  .superRefine(checkMeteredPlan)
  .meta({
    examples: [
      { name: 'Pro', amount: '10000000', interval: 'monthly' },
      {
        name: 'API, metered',
        amount: '10000000',
        interval: 'monthly',
        meteredPrices: [{ model: 'per_unit', meterId: 'mtr_01JD6Q8ZBX5T0M4N2K7Y9R3W1H', unitAmount: '2000' }],
        usageCap: '100000000',
      },
    ],
  });

export const plan = z
  .object({
    id: z.string(),
    object: z.literal('subscription_plan'),
    name: z.string(),
    amount: z.string(),
    currency: z.string(),
    interval: z.enum(PLAN_INTERVALS),
    intervalCount: z.number().int(),
    trialPeriodDays: z.number().int(),
    trialEndBehavior,
    chainIds: z
      .array(z.number().int())
      .nullable()
      .describe('The chains the plan is offered on, first the default; null: every chain of the mode.'),
    meteredPrices: z
      .array(meteredPriceInput)
      .nullable()
      .describe('Usage prices billed in arrears at each period start (docs/metered-billing.md); null: a fixed plan.'),
    usageCap: z
      .string()
      .nullable()
      .describe('Metered plans: the most pulled per period, authorised on chain at enrolment (the enrolment amount); null: a fixed plan.'),
    usageGracePeriodSeconds: z
      .number()
      .int()
      .nullable()
      .describe("Metered plans: how long after a period's start its close waits for late usage events; null: a fixed plan."),
    usageThreshold: z
      .string()
      .nullable()
      .describe('Metered plans: the unbilled usage (base units) that is invoiced early, mid-period; null: none (or a fixed plan).'),
    archived: z.boolean().describe('An archived plan takes no new enrolments; subscriptions already on it keep running.'),
    archivedAt: timestamp.nullable(),
    livemode: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'SubscriptionPlan' });

/**
 * POST /v1/subscription-plans/{id}: only the name and the trial end behaviour may change. The amount, interval and
 * trial are the terms each subscriber's wallet signed on chain; a new price is a new plan. The trial end behaviour is
 * the merchant's policy, read when a trial's first charge is refused, so a change applies to running trials too.
 */
export const updatePlanBody = z.object({ name: planName.optional(), trialEndBehavior: trialEndBehavior.optional() }).strict();
export const archivePlanBody = optionalBody(z.object({}).strict());

/** What the public hosted enrolment page may see of a plan. */
export const checkoutPlan = plan
  .pick({
    id: true,
    name: true,
    amount: true,
    currency: true,
    interval: true,
    intervalCount: true,
    trialPeriodDays: true,
    chainIds: true,
    meteredPrices: true,
    usageCap: true,
    livemode: true,
  })
  .meta({ id: 'CheckoutPlan' });

export const planParams = z.object({ id: pathId('plan') });
export const planList = listOf(plan);
export const planListQuery = listQueryOf('plan').extend({
  archived: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('`false`: only plans not archived; `true`: only archived ones. Absent: all.'),
});

export type CreatePlanBody = z.infer<typeof createPlanBody>;
export type Plan = z.infer<typeof plan>;
export type UpdatePlanBody = z.infer<typeof updatePlanBody>;
export type PlanListQuery = z.infer<typeof planListQuery>;
