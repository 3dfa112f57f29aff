// SQL of the analytics endpoints. Reads the maintained tables of
// src/db/migrations/00014_analytics.sql (subscription_mrr_changes,
// analytics_charge_revenue_daily), 00016_analytics_speed.sql
// (analytics_mrr_daily, analytics_cohort_customers_daily; its movement columns
// come from 00018_analytics_churn_rollup.sql) and the indexed read
// tables; every query is scoped to one merchant, one mode and one currency.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import type { Bucket } from './buckets.js';

export type StatsFilter = MerchantScope & { currency: string; planId?: string };

const ledgerScope = (db: Db, f: StatsFilter) =>
  db`m.merchant_id = ${f.merchantId} and m.livemode = ${f.livemode} and m.currency = ${f.currency}
     ${f.planId ? db`and m.plan_id = ${f.planId}` : db``}`;

// A paying "unit" is a customer (all its subscriptions in the currency), or with a planId filter one
// subscription of that plan (a customer's MRR is not split by plan).
const unitGained = (db: Db, f: StatsFilter) =>
  f.planId ? db`(m.mrr_before = 0 and m.mrr_after > 0)` : db`(m.customer_mrr_before = 0 and m.customer_mrr_after > 0)`;
const unitLost = (db: Db, f: StatsFilter) =>
  f.planId ? db`(m.mrr_before > 0 and m.mrr_after = 0)` : db`(m.customer_mrr_before > 0 and m.customer_mrr_after = 0)`;
const unitId = (db: Db, f: StatsFilter) => (f.planId ? db`m.subscription_id` : db`m.customer_id`);

const bucketTable = (db: Db, buckets: readonly { start: Date; end: Date }[]) =>
  db`unnest(${buckets.map((b) => b.start.toISOString())}::timestamptz[], ${buckets.map((b) => b.end.toISOString())}::timestamptz[])
     with ordinality as b(start_at, end_at, idx)`;

export type Balance = { mrr: bigint; units: bigint };

const isMidnight = (at: Date) => at.getTime() % 86_400_000 === 0;
const dayText = (at: Date) => at.toISOString().slice(0, 10);

// The daily rollup of the ledger (analytics_mrr_daily, 00016_analytics_speed.sql): one row per UTC day
// and plan, so a balance at a UTC midnight reads at most a few rows per day instead of every change.
const dailyScope = (db: Db, f: StatsFilter) =>
  db`d.merchant_id = ${f.merchantId} and d.livemode = ${f.livemode} and d.currency = ${f.currency}
     ${f.planId ? db`and d.plan_id = ${f.planId}` : db``}`;
const dailyGained = (db: Db, f: StatsFilter) => (f.planId ? db`d.subscriptions_gained` : db`d.customers_gained`);
const dailyLost = (db: Db, f: StatsFilter) => (f.planId ? db`d.subscriptions_lost` : db`d.customers_lost`);

/** MRR and paying units just before `at` (sum of every recorded change before it). */
export async function balanceAt(db: Db, f: StatsFilter, at: Date): Promise<Balance> {
  const [row] = isMidnight(at)
    ? await db<{ mrr: string; units: string }[]>`
        select coalesce(sum(d.mrr), 0)::text as mrr, coalesce(sum(${dailyGained(db, f)}) - sum(${dailyLost(db, f)}), 0)::text as units
        from analytics_mrr_daily d
        where ${dailyScope(db, f)} and d.day < ${dayText(at)}::date`
    : await db<{ mrr: string; units: string }[]>`
        select coalesce(sum(m.mrr_after - m.mrr_before), 0)::text as mrr,
               (count(*) filter (where ${unitGained(db, f)}) - count(*) filter (where ${unitLost(db, f)}))::text as units
        from subscription_mrr_changes m
        where ${ledgerScope(db, f)} and m.occurred_at < ${at}`;
  return { mrr: BigInt(row!.mrr), units: BigInt(row!.units) };
}

export type BucketMovements = {
  newMrr: bigint;
  expansion: bigint;
  contraction: bigint;
  churned: bigint;
  reactivation: bigint;
  /** Churned MRR of subscriptions cancelled / lapsed (part of `churned`; the rest is paused or completed). */
  churnedCancelled: bigint;
  churnedLapsed: bigint;
  unitsGained: bigint;
  unitsLost: bigint;
  /** Distinct units whose MRR went to zero through a cancel (voluntary) or only through a lapse (involuntary). */
  churnedUnits: bigint;
  churnedUnitsVoluntary: bigint;
};

const dayBucketTable = (db: Db, buckets: readonly { start: Date; end: Date }[]) =>
  db`unnest(${buckets.map((b) => dayText(b.start))}::date[], ${buckets.map((b) => dayText(b.end))}::date[])
     with ordinality as b(start_day, end_day, idx)`;

/**
 * Every MRR movement per bucket, in bucket order. The sums come from the daily rollup
 * (analytics_mrr_daily, whose movement columns 00018_analytics_churn_rollup.sql adds): a bucket is a
 * few rows per day instead of every ledger row in it. The distinct churned units are not a sum of
 * days (a unit can churn twice in a bucket), so they are counted on the churn-event index; `mrr`
 * does not report them and passes `churnedUnits: false` to skip that query.
 */
export async function movements(
  db: Db,
  f: StatsFilter,
  buckets: readonly Bucket[],
  options: { churnedUnits?: boolean } = {},
): Promise<BucketMovements[]> {
  if (buckets.some((b) => !isMidnight(b.start) || !isMidnight(b.end)))
    throw new Error('movements: buckets must start and end at UTC midnights');
  const [sums, churned] = await Promise.all([
    db<Record<string, string>[]>`
      select b.idx,
        coalesce(sum(d.new_mrr), 0)::text as "newMrr",
        coalesce(sum(d.expansion_mrr), 0)::text as expansion,
        coalesce(sum(d.contraction_mrr), 0)::text as contraction,
        coalesce(sum(d.churned_mrr), 0)::text as churned,
        coalesce(sum(d.reactivation_mrr), 0)::text as reactivation,
        coalesce(sum(d.churned_cancelled_mrr), 0)::text as "churnedCancelled",
        coalesce(sum(d.churned_lapsed_mrr), 0)::text as "churnedLapsed",
        coalesce(sum(${dailyGained(db, f)}), 0)::text as "unitsGained",
        coalesce(sum(${dailyLost(db, f)}), 0)::text as "unitsLost"
      from ${dayBucketTable(db, buckets)}
      left join analytics_mrr_daily d on ${dailyScope(db, f)} and d.day >= b.start_day and d.day < b.end_day
      group by b.idx order by b.idx`,
    options.churnedUnits === false ? Promise.resolve(undefined) : churnedUnitsPerBucket(db, f, buckets),
  ]);
  return sums.map((r, i) => ({
    newMrr: BigInt(r.newMrr!),
    expansion: BigInt(r.expansion!),
    contraction: BigInt(r.contraction!),
    churned: BigInt(r.churned!),
    reactivation: BigInt(r.reactivation!),
    churnedCancelled: BigInt(r.churnedCancelled!),
    churnedLapsed: BigInt(r.churnedLapsed!),
    unitsGained: BigInt(r.unitsGained!),
    unitsLost: BigInt(r.unitsLost!),
    churnedUnits: churned?.[i]?.churned ?? 0n,
    churnedUnitsVoluntary: churned?.[i]?.voluntary ?? 0n,
  }));
}

/**
 * Distinct units whose MRR went to zero through a cancel or a lapse in each bucket, and how many of
 * them through a cancel (voluntary). One range scan of the churn-event index
 * subscription_mrr_changes_churn (00016_analytics_speed.sql) over the whole range, each row put in its
 * bucket with width_bucket over the bucket starts (the buckets are contiguous), then grouped. A join of
 * the buckets to the index was planned as a nested loop over all churn events per bucket (800 ms for
 * 157 weekly buckets on the bench, against 40 ms this way). The filter repeats the index predicate.
 */
async function churnedUnitsPerBucket(
  db: Db,
  f: StatsFilter,
  buckets: readonly Bucket[],
): Promise<{ churned: bigint; voluntary: bigint }[]> {
  if (buckets.length === 0) return [];
  buckets.forEach((b, i) => {
    if (i > 0 && buckets[i - 1]!.end.getTime() !== b.start.getTime()) throw new Error('churnedUnitsPerBucket: buckets must be contiguous');
  });
  const rows = await db<{ idx: number; churned: string; voluntary: string }[]>`
    select width_bucket(m.occurred_at, ${buckets.map((b) => b.start.toISOString())}::timestamptz[]) as idx,
      count(distinct ${unitId(db, f)})::text as churned,
      count(distinct ${unitId(db, f)}) filter (where m.status_after = 'cancelled')::text as voluntary
    from subscription_mrr_changes m
    where ${ledgerScope(db, f)} and m.occurred_at >= ${buckets[0]!.start} and m.occurred_at < ${buckets[buckets.length - 1]!.end}
      and m.status_after in ('cancelled', 'lapsed') and ${unitLost(db, f)}
    group by 1`;
  const result = buckets.map(() => ({ churned: 0n, voluntary: 0n }));
  for (const r of rows) result[r.idx - 1] = { churned: BigInt(r.churned), voluntary: BigInt(r.voluntary) };
  return result;
}

export type ConversionCounts = {
  sessionsCreated: bigint;
  sessionsPaid: bigint;
  sessionsExpired: bigint;
  storefrontCreated: bigint;
  storefrontPaid: bigint;
  storefrontExpired: bigint;
  invoicesSent: bigint;
  invoicesPaid: bigint;
  trialsStarted: bigint;
  trialsConverted: bigint;
};

/**
 * Per bucket, by cohort: payment sessions created in the bucket and how many of them are paid
 * (completed) or expired now; invoices sent in the bucket and how many are paid; trials started in
 * the bucket and how many have reached a paid status since. `planId` filters the trials only.
 */
export async function conversion(db: Db, f: StatsFilter, buckets: readonly Bucket[]): Promise<ConversionCounts[]> {
  const [sessions, invoices, trials] = await Promise.all([
    db<Record<string, string>[]>`
      select b.idx, count(p.id)::text as created,
        count(p.id) filter (where p.status = 'completed')::text as paid,
        count(p.id) filter (where p.status = 'expired')::text as expired,
        count(p.id) filter (where p.product_id is not null)::text as "sfCreated",
        count(p.id) filter (where p.product_id is not null and p.status = 'completed')::text as "sfPaid",
        count(p.id) filter (where p.product_id is not null and p.status = 'expired')::text as "sfExpired"
      from ${bucketTable(db, buckets)}
      left join payment_sessions p on p.merchant_id = ${f.merchantId} and p.livemode = ${f.livemode} and p.currency = ${f.currency}
        and p.created_at >= b.start_at and p.created_at < b.end_at
      group by b.idx order by b.idx`,
    db<Record<string, string>[]>`
      select b.idx, count(i.id)::text as sent, count(i.id) filter (where i.paid_at is not null)::text as paid
      from ${bucketTable(db, buckets)}
      left join invoices i on i.merchant_id = ${f.merchantId} and i.livemode = ${f.livemode} and i.currency = ${f.currency}
        and i.sent_at is not null and i.sent_at >= b.start_at and i.sent_at < b.end_at
      group by b.idx order by b.idx`,
    db<Record<string, string>[]>`
      select b.idx, count(t.id)::text as started,
        count(t.id) filter (where exists (select 1 from subscription_mrr_changes m where m.subscription_id = t.id))::text as converted
      from ${bucketTable(db, buckets)}
      left join (
        select s.id, s.created_at from subscriptions s join subscription_plans pl on pl.id = s.plan_id
        where s.merchant_id = ${f.merchantId} and s.livemode = ${f.livemode} and pl.currency = ${f.currency}
          and s.trial_end is not null ${f.planId ? db`and s.plan_id = ${f.planId}` : db``}
      ) t on t.created_at >= b.start_at and t.created_at < b.end_at
      group by b.idx order by b.idx`,
  ]);
  return buckets.map((_, i) => ({
    sessionsCreated: BigInt(sessions[i]!.created!),
    sessionsPaid: BigInt(sessions[i]!.paid!),
    sessionsExpired: BigInt(sessions[i]!.expired!),
    storefrontCreated: BigInt(sessions[i]!.sfCreated!),
    storefrontPaid: BigInt(sessions[i]!.sfPaid!),
    storefrontExpired: BigInt(sessions[i]!.sfExpired!),
    invoicesSent: BigInt(invoices[i]!.sent!),
    invoicesPaid: BigInt(invoices[i]!.paid!),
    trialsStarted: BigInt(trials[i]!.started!),
    trialsConverted: BigInt(trials[i]!.converted!),
  }));
}

/** Distinct units churned (cancelled or lapsed, MRR to zero) within each window. */
export async function churnedUnitsInWindows(db: Db, f: StatsFilter, windows: readonly { start: Date; end: Date }[]): Promise<bigint[]> {
  const rows = await db<{ churned: string }[]>`
    select b.idx, count(distinct ${unitId(db, f)})::text as churned
    from ${bucketTable(db, windows)}
    left join subscription_mrr_changes m on ${ledgerScope(db, f)} and m.occurred_at >= b.start_at and m.occurred_at < b.end_at
      and ${unitLost(db, f)} and m.status_after in ('cancelled', 'lapsed')
    group by b.idx order by b.idx`;
  return rows.map((r) => BigInt(r.churned));
}

export type CohortRow = { cohort: string; customers: bigint; revenue: bigint; charges: bigint };

/**
 * Customers first seen in each month of `from`..`to` that hold a subscription in the currency (of
 * the plan), and the succeeded charge revenue they have brought up to the end of `to`. Both read
 * per-day counters (analytics_cohort_customers_daily, analytics_charge_revenue_daily); `fromMonth` and
 * `end` are UTC midnights.
 */
export async function cohorts(db: Db, f: StatsFilter, fromMonth: Date, end: Date): Promise<CohortRow[]> {
  const rows = await db<{ cohort: string; customers: string; revenue: string; charges: string }[]>`
    with members as (
      select date_trunc('month', a.day)::date as cohort, sum(a.customers) as customers
      from analytics_cohort_customers_daily a
      where a.merchant_id = ${f.merchantId} and a.livemode = ${f.livemode} and a.currency = ${f.currency}
        and a.plan_id = ${f.planId ?? ''} and a.day >= ${dayText(fromMonth)}::date and a.day < ${dayText(end)}::date
      group by 1
    ), revenue as (
      select r.cohort_month as cohort, sum(r.amount) as revenue, sum(r.charges) as charges
      from analytics_charge_revenue_daily r
      where r.merchant_id = ${f.merchantId} and r.livemode = ${f.livemode} and r.currency = ${f.currency}
        ${f.planId ? db`and r.plan_id = ${f.planId}` : db``}
        and r.cohort_month >= ${fromMonth} and r.cohort_month < ${end} and r.day < ${end}
      group by 1
    )
    select to_char(m.cohort, 'YYYY-MM-DD') as cohort, m.customers::text as customers,
           coalesce(r.revenue, 0)::text as revenue, coalesce(r.charges, 0)::text as charges
    from members m left join revenue r using (cohort)
    order by m.cohort`;
  return rows.map((r) => ({ cohort: r.cohort, customers: BigInt(r.customers), revenue: BigInt(r.revenue), charges: BigInt(r.charges) }));
}

export type ScheduleGroup = {
  interval: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  intervalCount: number;
  firstPeriodStart: Date;
  nextChargeAt: Date;
  nextPeriodIndex: number;
  /** Charges left including the next one; null when open-ended. */
  remaining: number | null;
  amount: bigint;
  mrr: bigint;
  status: string;
  subscriptions: number;
};

/**
 * Live subscriptions (trialing, active, at_risk) with a next charge, grouped by identical schedules
 * (same plan interval, anchor day, next charge day and term): the forecast expands each group's
 * charges. Buckets start at UTC midnight and a schedule keeps its time of day, so the UTC day of
 * each charge decides its bucket exactly.
 */
export async function scheduleGroups(db: Db, f: StatsFilter): Promise<ScheduleGroup[]> {
  const rows = await db<
    {
      interval: ScheduleGroup['interval'];
      intervalCount: number;
      firstPeriodStart: string;
      nextChargeAt: string;
      nextPeriodIndex: number;
      remaining: number | null;
      amount: string;
      mrr: string;
      status: string;
      subscriptions: number;
    }[]
  >`
    select pl.interval, pl.interval_count as "intervalCount",
      to_char(g.first_day, 'YYYY-MM-DD') as "firstPeriodStart", to_char(g.next_day, 'YYYY-MM-DD') as "nextChargeAt",
      g.next_index as "nextPeriodIndex", g.remaining,
      case when g.trialing then 'trialing' else 'paying' end as status,
      sum(g.amount * g.subscriptions)::text as amount,
      sum(analytics_monthly_mrr(g.amount, pl.interval, pl.interval_count) * g.subscriptions)::text as mrr,
      sum(g.subscriptions)::int as subscriptions
    from (
      -- Grouped first on narrow keys (dates, not text; the plan id, not its columns) and on the
      -- amount, so the MRR of a group is its count times one subscription's (truncated) MRR.
      -- A subscription under a discount pays its discounted amount (issue 40), as the MRR ledger counts it;
      -- otherwise its plan's price (after a plan change), else the amount it authorised.
      select s.plan_id, coalesce(s.discounted_amount, s.price_amount, s.amount) as amount, (s.first_period_start at time zone 'UTC')::date as first_day,
        (s.next_charge_at at time zone 'UTC')::date as next_day, coalesce(s.current_period_index + 1, 0) as next_index,
        case when s.periods = 0 then null else greatest(s.periods - coalesce(s.current_period_index + 1, 0), 0) end as remaining,
        s.status = 'trialing' as trialing, count(*) as subscriptions
      from subscriptions s
      where s.merchant_id = ${f.merchantId} and s.livemode = ${f.livemode}
        and s.status in ('trialing', 'active', 'at_risk') and s.next_charge_at is not null
        ${f.planId ? db`and s.plan_id = ${f.planId}` : db``}
      group by 1, 2, 3, 4, 5, 6, 7
    ) g join subscription_plans pl on pl.id = g.plan_id
    where pl.currency = ${f.currency}
    group by pl.interval, pl.interval_count, g.first_day, g.next_day, g.next_index, g.remaining, g.trialing`;
  return rows.map((r) => ({
    ...r,
    firstPeriodStart: new Date(`${r.firstPeriodStart}T00:00:00Z`),
    nextChargeAt: new Date(`${r.nextChargeAt}T00:00:00Z`),
    amount: BigInt(r.amount),
    mrr: BigInt(r.mrr),
  }));
}

export type DayChange = { day: string; mrr: bigint; gained: bigint; lost: bigint };

/** Net MRR change and paying units gained/lost per UTC day of [start, end) (both UTC midnights), days without changes left out. */
export async function dailyChanges(db: Db, f: StatsFilter, start: Date, end: Date): Promise<DayChange[]> {
  if (!isMidnight(start) || !isMidnight(end)) throw new Error('dailyChanges: start and end must be UTC midnights');
  const rows = await db<{ day: string; mrr: string; gained: string; lost: string }[]>`
    select to_char(d.day, 'YYYY-MM-DD') as day, sum(d.mrr)::text as mrr,
      sum(${dailyGained(db, f)})::text as gained, sum(${dailyLost(db, f)})::text as lost
    from analytics_mrr_daily d
    where ${dailyScope(db, f)} and d.day >= ${dayText(start)}::date and d.day < ${dayText(end)}::date
    group by d.day order by d.day`;
  return rows.map((r) => ({ day: r.day, mrr: BigInt(r.mrr), gained: BigInt(r.gained), lost: BigInt(r.lost) }));
}

/** Distinct units churned (cancelled or lapsed, MRR to zero) in one window, and how many of them through a cancel. */
export async function churnedUnitsVoluntarySplit(
  db: Db,
  f: StatsFilter,
  window: { start: Date; end: Date },
): Promise<{ churned: bigint; voluntary: bigint }> {
  const [row] = await db<{ churned: string; voluntary: string }[]>`
    select count(distinct ${unitId(db, f)})::text as churned,
           count(distinct ${unitId(db, f)}) filter (where m.status_after = 'cancelled')::text as voluntary
    from subscription_mrr_changes m
    where ${ledgerScope(db, f)} and m.occurred_at >= ${window.start} and m.occurred_at < ${window.end}
      and ${unitLost(db, f)} and m.status_after in ('cancelled', 'lapsed')`;
  return { churned: BigInt(row!.churned), voluntary: BigInt(row!.voluntary) };
}

/** Balances just before `from` and just before `end` (UTC midnights), in one scan of the daily rollup. */
export async function balancesAt(db: Db, f: StatsFilter, from: Date, end: Date): Promise<{ atFrom: Balance; atEnd: Balance }> {
  if (!isMidnight(from) || !isMidnight(end)) {
    const [atFrom, atEnd] = await Promise.all([balanceAt(db, f, from), balanceAt(db, f, end)]);
    return { atFrom, atEnd };
  }
  const [row] = await db<{ mrrFrom: string; unitsFrom: string; mrrEnd: string; unitsEnd: string }[]>`
    select coalesce(sum(d.mrr) filter (where d.day < ${dayText(from)}::date), 0)::text as "mrrFrom",
           coalesce(sum(${dailyGained(db, f)} - ${dailyLost(db, f)}) filter (where d.day < ${dayText(from)}::date), 0)::text as "unitsFrom",
           coalesce(sum(d.mrr), 0)::text as "mrrEnd",
           coalesce(sum(${dailyGained(db, f)} - ${dailyLost(db, f)}), 0)::text as "unitsEnd"
    from analytics_mrr_daily d
    where ${dailyScope(db, f)} and d.day < ${dayText(end)}::date`;
  return {
    atFrom: { mrr: BigInt(row!.mrrFrom), units: BigInt(row!.unitsFrom) },
    atEnd: { mrr: BigInt(row!.mrrEnd), units: BigInt(row!.unitsEnd) },
  };
}
