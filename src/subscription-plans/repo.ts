// SQL for subscription plans.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import type { TrialEndBehavior } from './schemas.js';
import type { MeteredPrice } from './metered-prices.js';

export type PlanRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  name: string;
  amount: string;
  currency: string;
  interval: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  intervalCount: number;
  trialPeriodDays: number;
  /** What a refused first charge after the trial does (src/subscription-plans/schemas.ts, TRIAL_END_BEHAVIORS). */
  trialEndBehavior: TrialEndBehavior;
  /** The chains the plan is offered on, first the default; null: every chain of the mode. */
  chainIds: number[] | null;
  /** Metered plans (issue 41): the usage prices, the cap authorised per period, the close's grace. All null on a fixed plan. */
  meteredPrices: MeteredPrice[] | null;
  usageCap: string | null;
  usageGracePeriodSeconds: number | null;
  /** Metered plans: the unbilled usage invoiced early by the threshold sweep (docs/metered-billing.md); null: none. */
  usageThreshold: string | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, name, amount::text as amount, currency, interval,
     interval_count as "intervalCount", trial_period_days as "trialPeriodDays",
     trial_end_behavior as "trialEndBehavior", chain_ids::int[] as "chainIds", metered_prices as "meteredPrices",
     usage_cap::text as "usageCap", usage_grace_period_seconds as "usageGracePeriodSeconds",
     usage_threshold::text as "usageThreshold", archived_at as "archivedAt",
     created_at as "createdAt", updated_at as "updatedAt"`;

export async function insertPlan(
  db: Db,
  plan: Omit<
    PlanRow,
    | 'createdAt'
    | 'updatedAt'
    | 'archivedAt'
    | 'chainIds'
    | 'trialEndBehavior'
    | 'meteredPrices'
    | 'usageCap'
    | 'usageGracePeriodSeconds'
    | 'usageThreshold'
  > & {
    chainIds?: number[] | null;
    trialEndBehavior?: TrialEndBehavior;
    metered?: { prices: MeteredPrice[]; usageCap: string; usageGracePeriodSeconds: number; usageThreshold?: string };
  },
): Promise<PlanRow> {
  const [row] = await db<PlanRow[]>`
    insert into subscription_plans (id, merchant_id, livemode, name, amount, currency, interval, interval_count, trial_period_days, chain_ids,
      trial_end_behavior, metered_prices, usage_cap, usage_grace_period_seconds, usage_threshold)
    values (${plan.id}, ${plan.merchantId}, ${plan.livemode}, ${plan.name}, ${plan.amount}, ${plan.currency},
            ${plan.interval}, ${plan.intervalCount}, ${plan.trialPeriodDays}, ${plan.chainIds ?? null}::bigint[],
            ${plan.trialEndBehavior ?? 'dunning'}, ${plan.metered ? db.json(plan.metered.prices as never) : null},
            ${plan.metered?.usageCap ?? null}, ${plan.metered?.usageGracePeriodSeconds ?? null},
            ${plan.metered?.usageThreshold ?? null})
    returning ${columns(db)}`;
  return row!;
}

export async function findPlan(db: Db, scope: MerchantScope, id: string, options: { lock?: boolean } = {}): Promise<PlanRow | undefined> {
  const [row] = await db<PlanRow[]>`
    select ${columns(db)} from subscription_plans
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
    ${options.lock ? db`for update` : db``}`;
  return row;
}

/** Renames a plan; its terms never change (subscribers' wallets signed them). */
export async function renamePlan(db: Db, id: string, name: string): Promise<PlanRow> {
  const [row] = await db<PlanRow[]>`
    update subscription_plans set name = ${name}, updated_at = now() where id = ${id} returning ${columns(db)}`;
  return row!;
}

/** Sets what a refused first charge after the trial does: the merchant's policy, not a term signed on chain. */
export async function setTrialEndBehavior(db: Db, id: string, trialEndBehavior: TrialEndBehavior): Promise<PlanRow> {
  const [row] = await db<PlanRow[]>`
    update subscription_plans set trial_end_behavior = ${trialEndBehavior}, updated_at = now() where id = ${id} returning ${columns(db)}`;
  return row!;
}

/** Archives a plan not yet archived; undefined when it already was. */
export async function archivePlan(db: Db, id: string): Promise<PlanRow | undefined> {
  const [row] = await db<PlanRow[]>`
    update subscription_plans set archived_at = now(), updated_at = now()
    where id = ${id} and archived_at is null returning ${columns(db)}`;
  return row;
}

/** Public read by id alone (hosted enrolment page). */
export async function findPlanById(db: Db, id: string): Promise<PlanRow | undefined> {
  const [row] = await db<PlanRow[]>`select ${columns(db)} from subscription_plans where id = ${id}`;
  return row;
}

export async function listPlans(
  db: Db,
  scope: MerchantScope,
  page: { before?: string; limit: number; archived?: boolean },
): Promise<PlanRow[]> {
  return db<PlanRow[]>`
    select ${columns(db)} from subscription_plans
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.before ? db`and id < ${page.before}` : db``}
      ${page.archived === undefined ? db`` : page.archived ? db`and archived_at is not null` : db`and archived_at is null`}
    order by id desc limit ${page.limit + 1}`;
}
