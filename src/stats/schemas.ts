// Query and response shapes of GET /v1/stats/*. Definitions are repeated in
// docs/analytics.md with worked examples.
import { z } from 'zod';
import { idParam } from '../http/schemas.js';
import { SUPPORTED_CURRENCIES } from '../subscription-plans/schemas.js';
import { MAX_BUCKETS, MAX_SPAN_DAYS, RATE_SCALE, STATS_INTERVALS, rangeIssues } from './buckets.js';

export const MAX_FORECAST_HORIZON = 36;
export const DEFAULT_FORECAST_HORIZON = 12;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

const baseShape = {
  from: day.describe('First day of the range (UTC), included.'),
  to: day.describe(
    `Last day of the range (UTC), included. At most ${MAX_SPAN_DAYS} days from \`from\`, and at most ${MAX_BUCKETS} buckets.`,
  ),
  interval: z
    .enum(STATS_INTERVALS)
    .default('month')
    .describe('Bucket size: UTC calendar day, ISO week (from Monday) or calendar month. First and last buckets are cut to the range.'),
  currency: z.enum(SUPPORTED_CURRENCIES).default('USDC').describe('Only amounts in this currency are counted.'),
  planId: idParam('plan').optional().describe('Only subscriptions of this plan (payment sessions and invoices are not filtered by plan).'),
};

function checkRange(value: { from: string; to: string; interval: (typeof STATS_INTERVALS)[number] }, ctx: z.RefinementCtx): void {
  for (const issue of rangeIssues(value.from, value.to, value.interval)) {
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  }
}

export const statsQuery = z.object(baseShape).superRefine(checkRange);
export const forecastQuery = z
  .object({
    ...baseShape,
    horizon: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_FORECAST_HORIZON)
      .default(DEFAULT_FORECAST_HORIZON)
      .describe(
        `How many buckets of \`interval\` to project after \`to\`, 1 to ${MAX_FORECAST_HORIZON} (default ${DEFAULT_FORECAST_HORIZON}).`,
      ),
  })
  .superRefine(checkRange);

export type StatsQuery = z.infer<typeof statsQuery>;
export type ForecastQuery = z.infer<typeof forecastQuery>;

const amount = z
  .string()
  .regex(/^-?\d+$/)
  .describe('Integer amount in base units, as a string.');
const count = z.string().regex(/^\d+$/).describe('A count, as an integer string.');
const rateString = z
  .string()
  .regex(/^-?\d+\.\d+$/)
  .describe(
    `A ratio as a decimal string with ${RATE_SCALE} digits, rounded half up, computed exactly; "0.0000" when the denominator is 0.`,
  );
const date = z.string().describe('First day (UTC, YYYY-MM-DD) of the bucket inside the range.');

function envelope<S extends z.ZodType, P extends z.ZodType>(summary: S, point: P) {
  return z.object({
    interval: z.enum(STATS_INTERVALS),
    from: z.string(),
    to: z.string(),
    currency: z.string(),
    planId: z.string().nullable(),
    summary,
    series: z.array(point),
  });
}

const movementsShape = {
  startingMrr: amount.describe('MRR just before the bucket (sum of every recorded change before it).'),
  newMrr: amount.describe('MRR of subscriptions paying for the first time (created active, or trial converted).'),
  expansionMrr: amount.describe("Increases of a paying subscription's amount."),
  contractionMrr: amount.describe("Decreases of a paying subscription's amount."),
  churnedMrr: amount.describe('MRR lost by subscriptions that stopped paying: cancelled, lapsed, paused or completed.'),
  reactivationMrr: amount.describe('MRR of subscriptions paying again after having stopped (resumed from paused).'),
  netNewMrr: amount.describe('new + expansion + reactivation - contraction - churned.'),
  endingMrr: amount.describe('startingMrr + netNewMrr.'),
  customers: count.describe('Paying customers at the end of the bucket (subscriptions of the plan with `planId`).'),
};

export const mrrResponse = envelope(
  z.object({ ...movementsShape, arr: amount.describe('endingMrr x 12.') }),
  z.object({ date, ...movementsShape }),
).meta({ id: 'MrrStats' });

const churnShape = {
  customersAtStart: count.describe('Paying customers just before the bucket.'),
  churnedCustomers: count.describe(
    'Distinct customers whose MRR went to zero through a cancel or a lapse in the bucket, each counted once.',
  ),
  voluntaryChurnedCustomers: count.describe('Of those, customers with a cancel (a customer with both a cancel and a lapse counts here).'),
  involuntaryChurnedCustomers: count.describe('Of those, customers with only lapses (grace period exceeded).'),
  customerChurnRate: rateString.describe('churnedCustomers / customersAtStart.'),
  mrrAtStart: amount,
  churnedMrr: amount.describe('MRR of subscriptions cancelled or lapsed in the bucket (paused and completed not included).'),
  voluntaryChurnedMrr: amount.describe('Cancelled part of churnedMrr.'),
  involuntaryChurnedMrr: amount.describe('Lapsed part of churnedMrr.'),
  mrrChurnRate: rateString.describe('churnedMrr / mrrAtStart.'),
};

export const churnResponse = envelope(z.object(churnShape), z.object({ date, ...churnShape })).meta({ id: 'ChurnStats' });

const sessionFunnel = z.object({ created: count, paid: count, expired: count, rate: rateString.describe('paid / created.') });

const conversionShape = {
  paymentSessions: sessionFunnel.describe('Payment sessions created in the bucket; of them, how many are paid (completed) or expired now.'),
  storefront: sessionFunnel.describe('The payment sessions with a product (storefront checkouts).'),
  invoices: z
    .object({ sent: count, paid: count, rate: rateString.describe('paid / sent.') })
    .describe('Invoices sent in the bucket; of them, how many are paid now.'),
  trials: z
    .object({ started: count, converted: count, rate: rateString.describe('converted / started.') })
    .describe('Subscriptions created with a trial in the bucket; of them, how many have paid since.'),
};

export const conversionResponse = envelope(z.object(conversionShape), z.object({ date, ...conversionShape })).meta({
  id: 'ConversionStats',
});

const ltvShape = {
  mrr: amount.describe('MRR at the end of the bucket.'),
  customers: count.describe('Paying customers at the end of the bucket.'),
  arpa: amount.describe('mrr / customers, truncated; 0 without customers.'),
  windowStart: z.string().describe('Start of the trailing window: the bucket end minus 3 calendar months.'),
  customersAtWindowStart: count,
  churnedCustomersInWindow: count,
  monthlyChurnRate: rateString.describe('churnedCustomersInWindow / (customersAtWindowStart x 3).'),
  ltv: amount
    .nullable()
    .describe(
      'arpa x customersAtWindowStart x 3 / churnedCustomersInWindow, truncated; null when nobody churned in the window (no finite lifetime observed) or nobody was paying at its start (no base to measure churn against).',
    ),
};

export const ltvResponse = envelope(
  z.object({
    ...ltvShape,
    cohorts: z
      .array(
        z.object({
          cohort: z.string().describe('First day of the month the customers were first seen.'),
          customers: count,
          revenue: amount.describe('Succeeded charges of those customers up to the end of `to`.'),
          charges: count,
          revenuePerCustomer: amount.describe('revenue / customers, truncated.'),
        }),
      )
      .describe('Observed lifetime revenue of the customers first seen in each month of the range.'),
  }),
  z.object({ date, ...ltvShape }),
).meta({ id: 'LtvStats' });

export const forecastResponse = envelope(
  z.object({
    mrrNow: amount.describe('MRR of active and at_risk subscriptions at the end of `to` (from the change ledger).'),
    projectedCash: amount.describe("Sum of the series' cash."),
    projectedMrrAtEnd: amount,
    assumptions: z.object({
      horizon: z.number().int(),
      observedFrom: z.string(),
      observedTo: z.string(),
      customersAtObservedStart: count,
      churnedCustomersObserved: count,
      monthlyChurnRate: rateString.describe(
        'churned x 365 / (customersAtObservedStart x observed days x 12): the observed churn per average month.',
      ),
      notes: z.array(z.string()),
    }),
  }),
  z.object({
    date,
    monthsAhead: z.number().int().describe('Whole months from the forecast start to the bucket start: the power of the survival factor.'),
    survival: rateString.describe('(1 - monthlyChurnRate)^monthsAhead.'),
    scheduledCash: amount.describe('Charges due in the bucket by the schedules of live subscriptions, before churn.'),
    cash: amount.describe('scheduledCash x survival, truncated.'),
    scheduledMrr: amount.describe('MRR of the subscriptions still in their term at the bucket start, before churn.'),
    mrr: amount.describe('scheduledMrr x survival, truncated.'),
  }),
).meta({ id: 'ForecastStats' });

export type MrrResponse = z.infer<typeof mrrResponse>;
export type ChurnResponse = z.infer<typeof churnResponse>;
export type ConversionResponse = z.infer<typeof conversionResponse>;
export type LtvResponse = z.infer<typeof ltvResponse>;
export type ForecastResponse = z.infer<typeof forecastResponse>;
