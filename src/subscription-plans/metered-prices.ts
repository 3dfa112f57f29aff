// The metered prices a plan may carry (issue 41, item 3; docs/metered-billing.md, "Metered prices"): one per meter,
// each per_unit, package, graduated or volume (src/billing-meters/pricing.ts prices them), and the cap per period
// the subscriber authorises on chain for a metered plan.
import { z } from 'zod';
import { amountString, idParam } from '../http/schemas.js';
import { isDecimal, priceTermsProblem, type MeteredPriceTerms } from '../billing-meters/pricing.js';

const decimal = (what: string) =>
  z
    .string()
    .regex(/^\d{1,26}(\.\d{1,12})?$/, 'must be a non-negative decimal string of at most 12 decimals')
    .refine(isDecimal)
    .describe(what);
const baseUnits = z
  .string()
  .regex(/^\d{1,30}$/, 'must be a non-negative integer string')
  .describe('USDC base units (6 decimals).');
const unitAmount = decimal(
  'Base units per unit, a decimal string of at most 12 decimals: "2000" is 0.002 USDC a unit, "0.5" half a base unit (lines round once, half up).',
);

const tier = z
  .object({
    upTo: decimal('The last unit of the tier (inclusive); null on the last tier, only there.').nullable(),
    unitAmount,
    flatAmount: baseUnits.default('0').describe('Base units added once when the tier is reached. Default "0".'),
  })
  .strict();

const meterId = idParam('billingMeter').describe('The meter whose usage this price bills (same merchant and mode).');

export const meteredPriceInput = z
  .discriminatedUnion('model', [
    z.object({ model: z.literal('per_unit'), meterId, unitAmount }).strict(),
    z
      .object({
        model: z.literal('package'),
        meterId,
        packageSize: decimal('Units per package; a partial package is billed as a whole one (rounded up).'),
        packageAmount: amountString.describe('Base units per package.'),
      })
      .strict(),
    z.object({ model: z.literal('graduated'), meterId, tiers: z.array(tier).min(1).max(10) }).strict(),
    z.object({ model: z.literal('volume'), meterId, tiers: z.array(tier).min(1).max(10) }).strict(),
  ])
  .superRefine((price, ctx) => {
    const problem = priceTermsProblem(price);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: problem.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
        message: problem.message,
      });
  })
  .meta({ id: 'MeteredPrice' });

export type MeteredPrice = MeteredPriceTerms & { meterId: string };

/** The fields of a plan's create body that make it metered. */
export const meteredPlanFields = {
  meteredPrices: z
    .array(meteredPriceInput)
    .min(1)
    .max(10)
    .optional()
    .describe(
      'Usage prices billed in arrears, one per meter (1 to 10): `per_unit`, `package`, `graduated` or `volume` tiers. A metered plan needs `usageCap`.',
    ),
  usageCap: amountString
    .optional()
    .describe(
      'Metered plans only (required there): the most pulled on chain per period, which the subscriber authorises at enrolment; at least `amount`. A period whose total is above it is charged the cap and the rest becomes an open invoice.',
    ),
  usageGracePeriodSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .optional()
    .describe('Metered plans only: how long after a period starts its close waits for late usage events (default 3600, at most 7 days).'),
  usageThreshold: amountString
    .optional()
    .describe(
      'Metered plans only: bill early. When the usage not yet billed reaches this amount (base units) mid-period, it is invoiced at once (an open invoice, `subscription.usage_threshold_reached`) and the period close bills only the usage after it. Nothing more is pulled on chain.',
    ),
};

type MeteredFields = {
  amount: string;
  meteredPrices?: MeteredPrice[];
  usageCap?: string;
  usageGracePeriodSeconds?: number;
  usageThreshold?: string;
};

/** The cross-field rules of a metered plan (issues on the body's paths). */
export function checkMeteredPlan(body: MeteredFields, ctx: z.RefinementCtx): void {
  if (!body.meteredPrices) {
    for (const key of ['usageCap', 'usageGracePeriodSeconds', 'usageThreshold'] as const)
      if (body[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is only for a plan with meteredPrices` });
    return;
  }
  if (body.usageCap === undefined)
    ctx.addIssue({ code: 'custom', path: ['usageCap'], message: 'a plan with meteredPrices needs usageCap' });
  else if (BigInt(body.usageCap) < BigInt(body.amount))
    ctx.addIssue({ code: 'custom', path: ['usageCap'], message: 'usageCap must be at least amount' });
  const seen = new Set<string>();
  for (const [i, price] of body.meteredPrices.entries()) {
    if (seen.has(price.meterId)) ctx.addIssue({ code: 'custom', path: ['meteredPrices', i, 'meterId'], message: 'one price per meter' });
    seen.add(price.meterId);
  }
}

export const DEFAULT_USAGE_GRACE_SECONDS = 3600;

/** What a subscriber authorises per period on chain: a metered plan's cap, a fixed plan's amount. */
export function authorisedAmountOf(plan: { amount: string; usageCap: string | null }): string {
  return plan.usageCap ?? plan.amount;
}
