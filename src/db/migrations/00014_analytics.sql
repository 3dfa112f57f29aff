-- Analytics (GET /v1/stats/*; docs/analytics.md). Two maintained tables, both
-- written by triggers in the same transaction as the change they record, so
-- they are never stale and no write site of the service can forget them:
--
--   subscription_mrr_changes        one row each time a subscription's monthly
--                                   recurring revenue (MRR) changes
--   analytics_charge_revenue_daily  succeeded charge revenue per day, plan and
--                                   customer cohort (month the customer was first seen)
--
-- Counted from when: changes are recorded from the moment this migration runs
-- (before it, the database held no history of amount or status changes);
-- subscriptions paying at that moment are recorded once as `new` at their
-- created_at (end of file). The revenue rollup is backfilled from the charges
-- already succeeded, since those carry their own settlement time.

-- MRR of one subscription, in base units: the charge per period normalised to a
-- month, truncated toward zero (integer division) per subscription.
--   daily     amount x 365 / (12 x intervalCount)
--   weekly    amount x 52  / (12 x intervalCount)
--   monthly   amount       / intervalCount
--   quarterly amount       / (3 x intervalCount)
--   yearly    amount       / (12 x intervalCount)
-- Not declared strict, so the planner inlines it into queries (null in gives null out anyway).
create function analytics_monthly_mrr(amount numeric, plan_interval text, interval_count integer) returns numeric
language sql immutable as $$
  select div(
    amount * case plan_interval when 'daily' then 365 when 'weekly' then 52 else 1 end,
    (case plan_interval when 'daily' then 12 when 'weekly' then 12 when 'monthly' then 1 when 'quarterly' then 3 when 'yearly' then 12 end)
      * interval_count::numeric)
$$;

create table subscription_mrr_changes (
  id bigserial primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  currency text not null,
  plan_id text not null references subscription_plans (id),
  customer_id text not null references customers (id),
  subscription_id text not null references subscriptions (id),
  -- When the change happened, taken from the subscription's own timestamps
  -- (created_at, cancelled_at, lapsed_at, completed_at, else updated_at).
  occurred_at timestamptz not null,
  kind text not null check (kind in ('new', 'expansion', 'contraction', 'churned', 'reactivation')),
  status_before text,
  status_after text not null,
  -- The subscription's MRR before and after (0 unless active or at_risk).
  mrr_before numeric(78, 0) not null,
  mrr_after numeric(78, 0) not null,
  -- The customer's MRR (all its subscriptions in this currency) before and after.
  customer_mrr_before numeric(78, 0) not null,
  customer_mrr_after numeric(78, 0) not null,
  recorded_at timestamptz not null default now(),
  check (mrr_before <> mrr_after)
);
create index subscription_mrr_changes_merchant on subscription_mrr_changes (merchant_id, livemode, currency, occurred_at);
create index subscription_mrr_changes_subscription on subscription_mrr_changes (subscription_id);

-- The customer's MRR lookup in the trigger, and conversion/forecast reads.
create index subscriptions_customer on subscriptions (customer_id);
create index subscriptions_merchant_created on subscriptions (merchant_id, livemode, created_at);
-- LTV cohorts: customers first seen in a month.
create index customers_merchant_created on customers (merchant_id, livemode, created_at);
create index payment_sessions_merchant_created on payment_sessions (merchant_id, livemode, created_at);
create index invoices_merchant_sent on invoices (merchant_id, livemode, sent_at) where sent_at is not null;

-- Every lookup here is by an indexed key; seq scans are off inside the function so a plan cached
-- while the tables were small (or a bulk insert that outgrows its statistics) never scans them whole.
create function analytics_record_mrr_change() returns trigger
language plpgsql set enable_seqscan = off as $$
declare
  plan record;
  before_mrr numeric := 0;
  after_mrr numeric := 0;
  customer_after numeric;
  change_kind text;
  at timestamptz;
begin
  select currency, interval, interval_count into plan from subscription_plans where id = new.plan_id;
  if tg_op = 'UPDATE' and old.status in ('active', 'at_risk') then
    before_mrr := analytics_monthly_mrr(old.amount, plan.interval, plan.interval_count);
  end if;
  if new.status in ('active', 'at_risk') then
    after_mrr := analytics_monthly_mrr(new.amount, plan.interval, plan.interval_count);
  end if;
  if before_mrr = after_mrr then
    return null;
  end if;

  if before_mrr = 0 then
    change_kind := case when exists (select 1 from subscription_mrr_changes where subscription_id = new.id) then 'reactivation' else 'new' end;
  elsif after_mrr = 0 then
    change_kind := 'churned';
  elsif after_mrr > before_mrr then
    change_kind := 'expansion';
  else
    change_kind := 'contraction';
  end if;

  at := case
    when tg_op = 'INSERT' then new.created_at
    when new.status = 'cancelled' then coalesce(new.cancelled_at, new.updated_at)
    when new.status = 'lapsed' then coalesce(new.lapsed_at, new.updated_at)
    when new.status = 'completed' then coalesce(new.completed_at, new.updated_at)
    else new.updated_at
  end;

  -- Serialises concurrent changes of one customer's subscriptions (a row lock, not an advisory
  -- lock, so a bulk insert takes no lock-table slots).
  perform 1 from customers where id = new.customer_id for update;
  select coalesce(sum(analytics_monthly_mrr(s.amount, p.interval, p.interval_count)), 0) into customer_after
  from subscriptions s join subscription_plans p on p.id = s.plan_id
  where s.customer_id = new.customer_id and s.status in ('active', 'at_risk') and p.currency = plan.currency;

  insert into subscription_mrr_changes (merchant_id, livemode, currency, plan_id, customer_id, subscription_id, occurred_at, kind,
    status_before, status_after, mrr_before, mrr_after, customer_mrr_before, customer_mrr_after)
  values (new.merchant_id, new.livemode, plan.currency, new.plan_id, new.customer_id, new.id, at, change_kind,
    case when tg_op = 'UPDATE' then old.status end, new.status, before_mrr, after_mrr,
    customer_after - (after_mrr - before_mrr), customer_after);
  return null;
end;
$$;

create trigger subscriptions_mrr_insert after insert on subscriptions
  for each row execute function analytics_record_mrr_change();
create trigger subscriptions_mrr_update after update of status, amount on subscriptions
  for each row when (old.status is distinct from new.status or old.amount is distinct from new.amount)
  execute function analytics_record_mrr_change();

create table analytics_charge_revenue_daily (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  currency text not null,
  -- UTC day the charge settled.
  day date not null,
  plan_id text not null references subscription_plans (id),
  -- First day of the UTC month the customer was first seen (customers.created_at).
  cohort_month date not null,
  amount numeric(78, 0) not null,
  charges bigint not null,
  primary key (merchant_id, livemode, currency, day, plan_id, cohort_month)
);

create function analytics_add_charge_revenue_insert() returns trigger
language plpgsql as $$
begin
  insert into analytics_charge_revenue_daily as r (merchant_id, livemode, currency, day, plan_id, cohort_month, amount, charges)
  select n.merchant_id, n.livemode, p.currency, (coalesce(n.settled_at, n.updated_at) at time zone 'UTC')::date, s.plan_id,
         date_trunc('month', c.created_at at time zone 'UTC')::date, sum(n.amount), count(*)
  from new_rows n
  join subscriptions s on s.id = n.subscription_id
  join subscription_plans p on p.id = s.plan_id
  join customers c on c.id = s.customer_id
  where n.status = 'succeeded'
  group by 1, 2, 3, 4, 5, 6
  on conflict (merchant_id, livemode, currency, day, plan_id, cohort_month)
    do update set amount = r.amount + excluded.amount, charges = r.charges + excluded.charges;
  return null;
end;
$$;

create function analytics_add_charge_revenue_update() returns trigger
language plpgsql as $$
begin
  insert into analytics_charge_revenue_daily as r (merchant_id, livemode, currency, day, plan_id, cohort_month, amount, charges)
  select n.merchant_id, n.livemode, p.currency, (coalesce(n.settled_at, n.updated_at) at time zone 'UTC')::date, s.plan_id,
         date_trunc('month', c.created_at at time zone 'UTC')::date, sum(n.amount), count(*)
  from new_rows n
  join subscriptions s on s.id = n.subscription_id
  join subscription_plans p on p.id = s.plan_id
  join customers c on c.id = s.customer_id
  where n.status = 'succeeded'
    and not exists (select 1 from old_rows o where o.id = n.id and o.status = 'succeeded')
  group by 1, 2, 3, 4, 5, 6
  on conflict (merchant_id, livemode, currency, day, plan_id, cohort_month)
    do update set amount = r.amount + excluded.amount, charges = r.charges + excluded.charges;
  return null;
end;
$$;

-- A charge is counted once, when it becomes succeeded (nothing moves it out of succeeded).
create trigger subscription_charges_revenue_insert after insert on subscription_charges
  referencing new table as new_rows for each statement execute function analytics_add_charge_revenue_insert();
create trigger subscription_charges_revenue_update after update on subscription_charges
  referencing old table as old_rows new table as new_rows for each statement execute function analytics_add_charge_revenue_update();

insert into analytics_charge_revenue_daily (merchant_id, livemode, currency, day, plan_id, cohort_month, amount, charges)
select ch.merchant_id, ch.livemode, p.currency, (coalesce(ch.settled_at, ch.updated_at) at time zone 'UTC')::date, s.plan_id,
       date_trunc('month', c.created_at at time zone 'UTC')::date, sum(ch.amount), count(*)
from subscription_charges ch
join subscriptions s on s.id = ch.subscription_id
join subscription_plans p on p.id = s.plan_id
join customers c on c.id = s.customer_id
where ch.status = 'succeeded'
group by 1, 2, 3, 4, 5, 6;

-- Subscriptions already paying when this migration runs: their current MRR is
-- recorded as `new` at their created_at (earlier plan or status changes were
-- never stored, so they cannot be replayed).
insert into subscription_mrr_changes (merchant_id, livemode, currency, plan_id, customer_id, subscription_id, occurred_at, kind,
  status_before, status_after, mrr_before, mrr_after, customer_mrr_before, customer_mrr_after)
select merchant_id, livemode, currency, plan_id, customer_id, id, created_at, 'new', null, status, 0, mrr,
       running - mrr, running
from (
  select s.*, p.currency, analytics_monthly_mrr(s.amount, p.interval, p.interval_count) as mrr,
         sum(analytics_monthly_mrr(s.amount, p.interval, p.interval_count))
           over (partition by s.customer_id, p.currency order by s.created_at, s.id) as running
  from subscriptions s join subscription_plans p on p.id = s.plan_id
  where s.status in ('active', 'at_risk')
) paying
where mrr > 0;
