// SQL for subscription plans.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';

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
  createdAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, name, amount::text as amount, currency, interval,
     interval_count as "intervalCount", trial_period_days as "trialPeriodDays", created_at as "createdAt"`;

export async function insertPlan(db: Db, plan: Omit<PlanRow, 'createdAt'>): Promise<PlanRow> {
  const [row] = await db<PlanRow[]>`
    insert into subscription_plans (id, merchant_id, livemode, name, amount, currency, interval, interval_count, trial_period_days)
    values (${plan.id}, ${plan.merchantId}, ${plan.livemode}, ${plan.name}, ${plan.amount}, ${plan.currency},
            ${plan.interval}, ${plan.intervalCount}, ${plan.trialPeriodDays})
    returning ${columns(db)}`;
  return row!;
}

export async function findPlan(db: Db, scope: MerchantScope, id: string): Promise<PlanRow | undefined> {
  const [row] = await db<PlanRow[]>`
    select ${columns(db)} from subscription_plans
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

/** Public read by id alone (hosted enrolment page). */
export async function findPlanById(db: Db, id: string): Promise<PlanRow | undefined> {
  const [row] = await db<PlanRow[]>`select ${columns(db)} from subscription_plans where id = ${id}`;
  return row;
}

export async function listPlans(db: Db, scope: MerchantScope, page: { before?: string; limit: number }): Promise<PlanRow[]> {
  return db<PlanRow[]>`
    select ${columns(db)} from subscription_plans
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}
