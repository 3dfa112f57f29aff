// The `pricing_intelligence` capability's rules, as a pure function
// (docs/agents.md, Pricing intelligence): deterministic suggestions from the
// merchant's own subscriptions over a trailing window. Read-only: a suggestion
// is a feed record (outcome `suggested`); no price ever changes by itself.

/** Days of the trailing window the rules read. */
export const PRICING_WINDOW_DAYS = 90;
/** A plan is judged only with this many subscriptions exposed in the window. */
export const MIN_PLAN_SUBSCRIPTIONS = 10;

export type PlanWindowStats = {
  planId: string;
  planName: string;
  /** Plan price, token base units per period. */
  amount: bigint;
  /** Subscriptions live at the window start plus those created in it. */
  exposed: number;
  /** Of those, cancelled or lapsed in the window. */
  churned: number;
};

export type PricingSuggestion = {
  planId: string;
  rule: 'high_churn' | 'low_churn';
  /** Churn of the plan and of the merchant (all judged plans), in basis points (1/100 of a percent). */
  planChurnBps: number;
  merchantChurnBps: number;
  summary: string;
};

const bps = (churned: number, exposed: number) => (exposed === 0 ? 0 : Math.floor((churned * 10_000) / exposed));
const pct = (b: number) => `${(b / 100).toFixed(1)}%`;

/**
 * Over the plans with at least MIN_PLAN_SUBSCRIPTIONS exposed (and at least two such plans, so there
 * is an average to compare with), with churn = churned / exposed and the merchant's churn the same
 * ratio over those plans together:
 * - `high_churn`: the plan's churn is at least twice the merchant's and at least 3 subscriptions
 *   churned: "review the price of this plan (lower it, or offer a longer interval)";
 * - `low_churn`: the plan's churn is at most half the merchant's, with at least 20 exposed: "the
 *   plan may bear a higher price".
 * Integer comparisons (churned x exposed cross-multiplied), so the outcome never depends on rounding.
 */
export function pricingSuggestions(plans: readonly PlanWindowStats[]): PricingSuggestion[] {
  const judged = plans.filter((p) => p.exposed >= MIN_PLAN_SUBSCRIPTIONS);
  if (judged.length < 2) return [];
  const exposed = judged.reduce((a, p) => a + p.exposed, 0);
  const churned = judged.reduce((a, p) => a + p.churned, 0);
  const merchantChurnBps = bps(churned, exposed);
  const out: PricingSuggestion[] = [];
  for (const plan of judged) {
    const planChurnBps = bps(plan.churned, plan.exposed);
    // plan.churned / plan.exposed >= 2 x churned / exposed
    if (plan.churned >= 3 && plan.churned * exposed >= 2 * churned * plan.exposed) {
      out.push({
        planId: plan.planId,
        rule: 'high_churn',
        planChurnBps,
        merchantChurnBps,
        summary: `Plan ${plan.planName} lost ${pct(planChurnBps)} of its subscribers in ${PRICING_WINDOW_DAYS} days against ${pct(merchantChurnBps)} across your plans: review its price (lower it, or offer a longer interval).`,
      });
    } else if (plan.exposed >= 20 && 2 * plan.churned * exposed <= churned * plan.exposed && churned > 0) {
      out.push({
        planId: plan.planId,
        rule: 'low_churn',
        planChurnBps,
        merchantChurnBps,
        summary: `Plan ${plan.planName} lost ${pct(planChurnBps)} of its subscribers in ${PRICING_WINDOW_DAYS} days against ${pct(merchantChurnBps)} across your plans: it may bear a higher price.`,
      });
    }
  }
  return out;
}
