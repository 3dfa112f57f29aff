// HTTP routes of analytics (GET /v1/stats/*), scope analytics_read. Each figure's
// definition is in the route description and in docs/analytics.md.
import type { FastifyZodInstance } from '../http/types.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { MAX_BUCKETS, MAX_SPAN_DAYS, RATE_SCALE } from './buckets.js';
import { churnResponse, conversionResponse, forecastQuery, forecastResponse, ltvResponse, mrrResponse, statsQuery } from './schemas.js';
import type { StatsService } from './service.js';

const COMMON = [
  `Query: \`from\` and \`to\` (UTC dates, both included, \`from <= to\`, at most ${MAX_SPAN_DAYS} days and ${MAX_BUCKETS} buckets), \`interval\` (day, week from Monday, month; default month), \`currency\` (default USDC), optional \`planId\`.`,
  `Amounts are integer strings in base units; rates are decimal strings with ${RATE_SCALE} digits, rounded half up, computed exactly.`,
  "A subscription's MRR is its charge per period normalised to a month and truncated per subscription: yearly / 12, quarterly / 3, monthly x 1, weekly x 52 / 12, daily x 365 / 12, each divided by the plan's intervalCount; it counts while the subscription is active or at_risk (not trialing, paused or ended).",
  'Figures come from a change ledger written in the same transaction as each subscription change; see docs/analytics.md for worked examples.',
].join('\n\n');

export function registerStatsRoutes(app: FastifyZodInstance, stats: StatsService): void {
  app.route({
    method: 'GET',
    url: '/v1/stats/mrr',
    config: { access: access.scope('analytics_read') },
    schema: {
      tags: ['Analytics'],
      summary: 'Monthly recurring revenue and its movements',
      description: [
        'Per bucket: startingMrr (MRR just before the bucket), the movements new (first payment of a subscription), expansion and contraction (amount changes of a paying subscription), churned (a paying subscription cancelled, lapsed, paused or completed), reactivation (paying again after a pause), netNewMrr = new + expansion + reactivation - contraction - churned, and endingMrr = startingMrr + netNewMrr. Summary: the same over the whole range, and arr = endingMrr x 12.',
        COMMON,
      ].join('\n\n'),
      querystring: statsQuery,
      response: { 200: mrrResponse },
    },
    handler: (request) => stats.mrr(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/stats/churn',
    config: { access: access.scope('analytics_read') },
    schema: {
      tags: ['Analytics'],
      summary: 'Customer and MRR churn',
      description: [
        'Per bucket: customerChurnRate = churnedCustomers / customersAtStart, where churnedCustomers counts once each customer whose MRR (all its subscriptions in the currency) went to zero by a cancel (voluntary) or a lapse (involuntary; voluntary wins if both) in the bucket; mrrChurnRate = churnedMrr / mrrAtStart, churnedMrr being the MRR of the subscriptions cancelled or lapsed in the bucket. With planId a "customer" is one subscription of that plan. The summary applies the same formulas to the whole range (not per month).',
        COMMON,
      ].join('\n\n'),
      querystring: statsQuery,
      response: { 200: churnResponse },
    },
    handler: (request) => stats.churn(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/stats/conversion',
    config: { access: access.scope('analytics_read') },
    schema: {
      tags: ['Analytics'],
      summary: 'Conversion of payment sessions, invoices and trials',
      description: [
        'By cohort: payment sessions created in the bucket and, of them, how many are paid (completed) and expired now (storefront: those with a product); invoices sent in the bucket and how many of them are paid; subscriptions created with a trial in the bucket and how many of them have paid since. rate = paid / created (or converted / started). planId filters trials only.',
        COMMON,
      ].join('\n\n'),
      querystring: statsQuery,
      response: { 200: conversionResponse },
    },
    handler: (request) => stats.conversion(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/stats/ltv',
    config: { access: access.scope('analytics_read') },
    schema: {
      tags: ['Analytics'],
      summary: 'Customer lifetime value',
      description: [
        "At the end of each bucket: arpa = mrr / customers (truncated); over the trailing window of 3 calendar months ending there, monthlyChurnRate = churnedCustomersInWindow / (customersAtWindowStart x 3); ltv = arpa x customersAtWindowStart x 3 / churnedCustomersInWindow (= arpa / monthlyChurnRate, truncated), null when nobody churned in the window or nobody paid at its start. The summary is the last bucket's figures plus cohorts: customers first seen in each month of the range and the succeeded charges they have paid up to `to`.",
        COMMON,
      ].join('\n\n'),
      querystring: statsQuery,
      response: { 200: ltvResponse },
    },
    handler: (request) => stats.ltv(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/stats/forecast',
    config: { access: access.scope('analytics_read') },
    schema: {
      tags: ['Analytics'],
      summary: 'Projected MRR and cash',
      description: [
        'Projects `horizon` buckets starting the day after `to` from the schedules of live subscriptions (next charge date, then one charge per billing period until a fixed term ends), reduced by survival = (1 - c)^monthsAhead, c being the monthly churn observed over `from`..`to`: churned customers x 365 / (customers at `from` x days x 12). The assumptions are returned in summary.assumptions.',
        COMMON,
      ].join('\n\n'),
      querystring: forecastQuery,
      response: { 200: forecastResponse },
    },
    handler: (request) => stats.forecast(requestScope(request), request.query),
  });
}
