// SQL of subscription plan changes, and of the plan and price they set on the subscription.
import type { Db } from '../db/client.js';

export type PlanChangeStatus = 'scheduled' | 'requires_customer_action' | 'applied' | 'cancelled';

export type PlanChangeRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  subscriptionId: string;
  fromPlanId: string;
  toPlanId: string;
  fromAmount: string;
  toAmount: string;
  prorationBehavior: 'create_prorations' | 'none';
  status: PlanChangeStatus;
  periodIndex: number | null;
  effectivePeriodIndex: number | null;
  effectiveAt: Date | null;
  prorationAmount: string;
  prorationPeriodIndex: number | null;
  appliedAt: Date | null;
  cancelledAt: Date | null;
  createdAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, subscription_id as "subscriptionId", from_plan_id as "fromPlanId",
     to_plan_id as "toPlanId", from_amount::text as "fromAmount", to_amount::text as "toAmount",
     proration_behavior as "prorationBehavior", status, period_index as "periodIndex",
     effective_period_index as "effectivePeriodIndex", effective_at as "effectiveAt", proration_amount::text as "prorationAmount",
     proration_period_index as "prorationPeriodIndex", applied_at as "appliedAt", cancelled_at as "cancelledAt", created_at as "createdAt"`;

/** `createdAt` is when the row is written (wall time); the change's business time is `effectiveAt` / `appliedAt`. */
export type NewPlanChange = Omit<PlanChangeRow, 'prorationPeriodIndex' | 'cancelledAt' | 'createdAt'>;

export async function insertPlanChange(db: Db, c: NewPlanChange): Promise<PlanChangeRow> {
  const [row] = await db<PlanChangeRow[]>`
    insert into subscription_plan_changes (id, merchant_id, livemode, subscription_id, from_plan_id, to_plan_id, from_amount,
      to_amount, proration_behavior, status, period_index, effective_period_index, effective_at, proration_amount, applied_at)
    values (${c.id}, ${c.merchantId}, ${c.livemode}, ${c.subscriptionId}, ${c.fromPlanId}, ${c.toPlanId}, ${c.fromAmount},
      ${c.toAmount}, ${c.prorationBehavior}, ${c.status}, ${c.periodIndex}, ${c.effectivePeriodIndex}, ${c.effectiveAt},
      ${c.prorationAmount}, ${c.appliedAt})
    returning ${columns(db)}`;
  return row!;
}

/** Cancels the change waiting on a subscription, if any; returns it. */
export async function cancelOpenPlanChange(db: Db, subscriptionId: string, at: Date): Promise<PlanChangeRow | undefined> {
  const [row] = await db<PlanChangeRow[]>`
    update subscription_plan_changes set status = 'cancelled', cancelled_at = ${at}
    where subscription_id = ${subscriptionId} and status in ('scheduled', 'requires_customer_action')
    returning ${columns(db)}`;
  return row;
}

/** Whether a change is due by `periodIndex`, and the grace of the subscription's plan if it is metered (0: a fixed plan), in one read. */
export async function duePlanChangeAndUsageGrace(
  db: Db,
  subscriptionId: string,
  periodIndex: number,
): Promise<{ changeDue: boolean; usageGraceSeconds: number }> {
  const [row] = await db<{ changeDue: boolean; usageGraceSeconds: number }[]>`
    select exists (select 1 from subscription_plan_changes
                   where subscription_id = ${subscriptionId} and status = 'scheduled' and effective_period_index <= ${periodIndex}) as "changeDue",
      coalesce((select p.usage_grace_period_seconds from subscriptions s join subscription_plans p on p.id = s.plan_id
                where s.id = ${subscriptionId}), 0) as "usageGraceSeconds"`;
  return row!;
}

/** Marks the scheduled change due by `periodIndex` applied (once); undefined when there is none. */
export async function applyDuePlanChange(
  db: Db,
  subscriptionId: string,
  periodIndex: number,
  at: Date,
): Promise<PlanChangeRow | undefined> {
  const [row] = await db<PlanChangeRow[]>`
    update subscription_plan_changes set status = 'applied', applied_at = ${at}
    where subscription_id = ${subscriptionId} and status = 'scheduled' and effective_period_index <= ${periodIndex}
    returning ${columns(db)}`;
  return row;
}

/**
 * Sets the subscription's plan, what a period charges (before a discount) and, under an open discount, what
 * it charges after it (MRR counts it, 00042): one update, so one MRR change.
 */
export async function setSubscriptionPlan(
  db: Db,
  subscriptionId: string,
  plan: { planId: string; priceAmount: string; discountedAmount: string | null },
): Promise<void> {
  await db`
    update subscriptions set plan_id = ${plan.planId}, price_amount = ${plan.priceAmount},
      discounted_amount = ${plan.discountedAmount}, updated_at = now()
    where id = ${subscriptionId}`;
}

/**
 * The prorations the first charge of period `periodIndex` collects: those of changes applied in an earlier
 * period and not yet collected are claimed for it (their own rows only: no lock on the subscription), and
 * the total claimed for it is returned, so a retried attempt finds the same total. One statement: the outer
 * read sees the rows as they were before the claim, so the two sums never count a row twice.
 */
export async function claimProrations(db: Db, subscriptionId: string, periodIndex: number): Promise<bigint> {
  const [row] = await db<{ total: string }[]>`
    with claimed as (
      update subscription_plan_changes set proration_period_index = ${periodIndex}
      where subscription_id = ${subscriptionId} and status = 'applied' and proration_amount > 0
        and proration_period_index is null and period_index < ${periodIndex}
      returning proration_amount)
    select (coalesce((select sum(proration_amount) from claimed), 0)
      + coalesce((select sum(proration_amount) from subscription_plan_changes
                  where subscription_id = ${subscriptionId} and proration_period_index = ${periodIndex}), 0))::text as total`;
  return BigInt(row!.total);
}

/** What claimProrations would return for period `periodIndex`, without claiming (the upcoming invoice). */
export async function pendingProrations(db: Db, subscriptionId: string, periodIndex: number): Promise<bigint> {
  const [row] = await db<{ total: string }[]>`
    select coalesce(sum(proration_amount), 0)::text as total from subscription_plan_changes
    where subscription_id = ${subscriptionId}
      and ((status = 'applied' and proration_amount > 0 and proration_period_index is null and period_index < ${periodIndex})
        or proration_period_index = ${periodIndex})`;
  return BigInt(row!.total);
}

export async function findPlanChange(db: Db, id: string): Promise<PlanChangeRow | undefined> {
  const [row] = await db<PlanChangeRow[]>`select ${columns(db)} from subscription_plan_changes where id = ${id}`;
  return row;
}

/** A change that waited for the customer, applied from period `periodIndex` (their new enrolment's first); once. */
export async function applyWaitingPlanChange(
  db: Db,
  id: string,
  applied: { periodIndex: number; effectiveAt: Date; at: Date },
): Promise<PlanChangeRow | undefined> {
  const [row] = await db<PlanChangeRow[]>`
    update subscription_plan_changes set status = 'applied', effective_period_index = ${applied.periodIndex},
      effective_at = ${applied.effectiveAt}, applied_at = ${applied.at}
    where id = ${id} and status = 'requires_customer_action'
    returning ${columns(db)}`;
  return row;
}
