-- Analytics churn rollup (docs/benchmarks.md, "Analytics endpoints"; docs/analytics.md, "How it is computed").
-- The MRR movements of `mrr` and `churn` per bucket (new, expansion, contraction, churned,
-- reactivation, and the churned MRR of cancels and of lapses) are sums, so they are kept per UTC day
-- and plan in analytics_mrr_daily (00016_analytics_speed.sql) next to the net change it already holds:
-- a bucket's movements are then a sum over its days instead of a scan of every ledger row in it.
-- The distinct churned units of a bucket are not a sum of days (a unit can churn, come back and churn
-- again inside one bucket); they stay on the churn-event index subscription_mrr_changes_churn.
--
-- The rollup now also follows updates and deletes of ledger rows (the service only appends, but a
-- correction or a cleanup by hand must not leave the rollup disagreeing with the ledger): an update
-- takes its old rows out and adds its new ones, a delete takes its rows out, a truncate empties it.
-- Days whose counters all fall back to zero keep their (zero) row; sums are unaffected.
--
-- Every column is backfilled from the ledger already there, so the rollup holds the same figures as
-- the ledger from the moment this migration commits. Ledger writes wait for it (table lock below).

lock table subscription_mrr_changes in share row exclusive mode;

alter table analytics_mrr_daily
  -- sum(mrr_after - mrr_before) of kind 'new' / 'expansion'
  add column new_mrr numeric(78, 0) not null default 0,
  add column expansion_mrr numeric(78, 0) not null default 0,
  -- sum(mrr_before - mrr_after) of kind 'contraction'
  add column contraction_mrr numeric(78, 0) not null default 0,
  -- sum(mrr_before) of kind 'churned' (any status_after: cancelled, lapsed, paused, completed)
  add column churned_mrr numeric(78, 0) not null default 0,
  -- sum(mrr_after) of kind 'reactivation'
  add column reactivation_mrr numeric(78, 0) not null default 0,
  -- sum(mrr_before) of kind 'churned' with status_after 'cancelled' (voluntary) / 'lapsed' (involuntary)
  add column churned_cancelled_mrr numeric(78, 0) not null default 0,
  add column churned_lapsed_mrr numeric(78, 0) not null default 0;

-- Same name as in 00016, so its insert trigger now fills the new columns too. One row per
-- (merchant, mode, currency, plan, UTC day) of the statement's rows is added (new rows) or taken out
-- (old rows: every counter negated). The two statements are static SQL (a cached plan each), and only
-- the one whose transition table the firing trigger has is ever run.
create or replace function analytics_add_mrr_daily() returns trigger
language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    insert into analytics_mrr_daily as d (merchant_id, livemode, currency, plan_id, day, mrr,
      customers_gained, customers_lost, subscriptions_gained, subscriptions_lost,
      new_mrr, expansion_mrr, contraction_mrr, churned_mrr, reactivation_mrr, churned_cancelled_mrr, churned_lapsed_mrr)
    select r.merchant_id, r.livemode, r.currency, r.plan_id, (r.occurred_at at time zone 'UTC')::date,
           -sum(r.mrr_after - r.mrr_before),
           -count(*) filter (where r.customer_mrr_before = 0 and r.customer_mrr_after > 0),
           -count(*) filter (where r.customer_mrr_before > 0 and r.customer_mrr_after = 0),
           -count(*) filter (where r.mrr_before = 0 and r.mrr_after > 0),
           -count(*) filter (where r.mrr_before > 0 and r.mrr_after = 0),
           -coalesce(sum(r.mrr_after - r.mrr_before) filter (where r.kind = 'new'), 0),
           -coalesce(sum(r.mrr_after - r.mrr_before) filter (where r.kind = 'expansion'), 0),
           -coalesce(sum(r.mrr_before - r.mrr_after) filter (where r.kind = 'contraction'), 0),
           -coalesce(sum(r.mrr_before) filter (where r.kind = 'churned'), 0),
           -coalesce(sum(r.mrr_after) filter (where r.kind = 'reactivation'), 0),
           -coalesce(sum(r.mrr_before) filter (where r.kind = 'churned' and r.status_after = 'cancelled'), 0),
           -coalesce(sum(r.mrr_before) filter (where r.kind = 'churned' and r.status_after = 'lapsed'), 0)
    from old_rows r
    group by 1, 2, 3, 4, 5
    on conflict (merchant_id, livemode, currency, day, plan_id) do update set
      mrr = d.mrr + excluded.mrr,
      customers_gained = d.customers_gained + excluded.customers_gained,
      customers_lost = d.customers_lost + excluded.customers_lost,
      subscriptions_gained = d.subscriptions_gained + excluded.subscriptions_gained,
      subscriptions_lost = d.subscriptions_lost + excluded.subscriptions_lost,
      new_mrr = d.new_mrr + excluded.new_mrr,
      expansion_mrr = d.expansion_mrr + excluded.expansion_mrr,
      contraction_mrr = d.contraction_mrr + excluded.contraction_mrr,
      churned_mrr = d.churned_mrr + excluded.churned_mrr,
      reactivation_mrr = d.reactivation_mrr + excluded.reactivation_mrr,
      churned_cancelled_mrr = d.churned_cancelled_mrr + excluded.churned_cancelled_mrr,
      churned_lapsed_mrr = d.churned_lapsed_mrr + excluded.churned_lapsed_mrr;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into analytics_mrr_daily as d (merchant_id, livemode, currency, plan_id, day, mrr,
      customers_gained, customers_lost, subscriptions_gained, subscriptions_lost,
      new_mrr, expansion_mrr, contraction_mrr, churned_mrr, reactivation_mrr, churned_cancelled_mrr, churned_lapsed_mrr)
    select r.merchant_id, r.livemode, r.currency, r.plan_id, (r.occurred_at at time zone 'UTC')::date,
           sum(r.mrr_after - r.mrr_before),
           count(*) filter (where r.customer_mrr_before = 0 and r.customer_mrr_after > 0),
           count(*) filter (where r.customer_mrr_before > 0 and r.customer_mrr_after = 0),
           count(*) filter (where r.mrr_before = 0 and r.mrr_after > 0),
           count(*) filter (where r.mrr_before > 0 and r.mrr_after = 0),
           coalesce(sum(r.mrr_after - r.mrr_before) filter (where r.kind = 'new'), 0),
           coalesce(sum(r.mrr_after - r.mrr_before) filter (where r.kind = 'expansion'), 0),
           coalesce(sum(r.mrr_before - r.mrr_after) filter (where r.kind = 'contraction'), 0),
           coalesce(sum(r.mrr_before) filter (where r.kind = 'churned'), 0),
           coalesce(sum(r.mrr_after) filter (where r.kind = 'reactivation'), 0),
           coalesce(sum(r.mrr_before) filter (where r.kind = 'churned' and r.status_after = 'cancelled'), 0),
           coalesce(sum(r.mrr_before) filter (where r.kind = 'churned' and r.status_after = 'lapsed'), 0)
    from new_rows r
    group by 1, 2, 3, 4, 5
    on conflict (merchant_id, livemode, currency, day, plan_id) do update set
      mrr = d.mrr + excluded.mrr,
      customers_gained = d.customers_gained + excluded.customers_gained,
      customers_lost = d.customers_lost + excluded.customers_lost,
      subscriptions_gained = d.subscriptions_gained + excluded.subscriptions_gained,
      subscriptions_lost = d.subscriptions_lost + excluded.subscriptions_lost,
      new_mrr = d.new_mrr + excluded.new_mrr,
      expansion_mrr = d.expansion_mrr + excluded.expansion_mrr,
      contraction_mrr = d.contraction_mrr + excluded.contraction_mrr,
      churned_mrr = d.churned_mrr + excluded.churned_mrr,
      reactivation_mrr = d.reactivation_mrr + excluded.reactivation_mrr,
      churned_cancelled_mrr = d.churned_cancelled_mrr + excluded.churned_cancelled_mrr,
      churned_lapsed_mrr = d.churned_lapsed_mrr + excluded.churned_lapsed_mrr;
  end if;
  return null;
end;
$$;

create trigger subscription_mrr_changes_daily_update after update on subscription_mrr_changes
  referencing old table as old_rows new table as new_rows for each statement execute function analytics_add_mrr_daily();
create trigger subscription_mrr_changes_daily_delete after delete on subscription_mrr_changes
  referencing old table as old_rows for each statement execute function analytics_add_mrr_daily();

create function analytics_clear_mrr_daily() returns trigger
language plpgsql as $$
begin
  delete from analytics_mrr_daily;
  return null;
end;
$$;

create trigger subscription_mrr_changes_daily_truncate after truncate on subscription_mrr_changes
  for each statement execute function analytics_clear_mrr_daily();

-- Backfill: the rollup rebuilt from the ledger, every column (the 00016 columns are recomputed too,
-- so the table holds exactly what the ledger sums to).
delete from analytics_mrr_daily;
insert into analytics_mrr_daily as d (merchant_id, livemode, currency, plan_id, day, mrr,
      customers_gained, customers_lost, subscriptions_gained, subscriptions_lost,
      new_mrr, expansion_mrr, contraction_mrr, churned_mrr, reactivation_mrr, churned_cancelled_mrr, churned_lapsed_mrr)
    select r.merchant_id, r.livemode, r.currency, r.plan_id, (r.occurred_at at time zone 'UTC')::date,
           sum(r.mrr_after - r.mrr_before),
           count(*) filter (where r.customer_mrr_before = 0 and r.customer_mrr_after > 0),
           count(*) filter (where r.customer_mrr_before > 0 and r.customer_mrr_after = 0),
           count(*) filter (where r.mrr_before = 0 and r.mrr_after > 0),
           count(*) filter (where r.mrr_before > 0 and r.mrr_after = 0),
           coalesce(sum(r.mrr_after - r.mrr_before) filter (where r.kind = 'new'), 0),
           coalesce(sum(r.mrr_after - r.mrr_before) filter (where r.kind = 'expansion'), 0),
           coalesce(sum(r.mrr_before - r.mrr_after) filter (where r.kind = 'contraction'), 0),
           coalesce(sum(r.mrr_before) filter (where r.kind = 'churned'), 0),
           coalesce(sum(r.mrr_after) filter (where r.kind = 'reactivation'), 0),
           coalesce(sum(r.mrr_before) filter (where r.kind = 'churned' and r.status_after = 'cancelled'), 0),
           coalesce(sum(r.mrr_before) filter (where r.kind = 'churned' and r.status_after = 'lapsed'), 0)
    from subscription_mrr_changes r
    group by 1, 2, 3, 4, 5
    on conflict (merchant_id, livemode, currency, day, plan_id) do update set
      mrr = d.mrr + excluded.mrr,
      customers_gained = d.customers_gained + excluded.customers_gained,
      customers_lost = d.customers_lost + excluded.customers_lost,
      subscriptions_gained = d.subscriptions_gained + excluded.subscriptions_gained,
      subscriptions_lost = d.subscriptions_lost + excluded.subscriptions_lost,
      new_mrr = d.new_mrr + excluded.new_mrr,
      expansion_mrr = d.expansion_mrr + excluded.expansion_mrr,
      contraction_mrr = d.contraction_mrr + excluded.contraction_mrr,
      churned_mrr = d.churned_mrr + excluded.churned_mrr,
      reactivation_mrr = d.reactivation_mrr + excluded.reactivation_mrr,
      churned_cancelled_mrr = d.churned_cancelled_mrr + excluded.churned_cancelled_mrr,
      churned_lapsed_mrr = d.churned_lapsed_mrr + excluded.churned_lapsed_mrr;
