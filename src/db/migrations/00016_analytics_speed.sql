-- Analytics speed (docs/benchmarks.md, "Analytics endpoints"; docs/decisions.md, "Analytics").
-- Two more maintained tables, both written by triggers in the same transaction as the change they
-- record (like those of 00014_analytics.sql), and one partial index:
--
--   analytics_mrr_daily                   subscription_mrr_changes summed per UTC day and plan: every
--                                         balance (MRR and paying units before a UTC midnight) reads
--                                         this instead of the ledger
--   analytics_cohort_customers_daily      customers first seen on a UTC day that hold a subscription in
--                                         a currency (plan_id '') or of a plan: the LTV cohort sizes
--   subscription_mrr_changes_churn        the churn events (status_after cancelled / lapsed), for the
--                                         distinct churned-unit counts, which cannot be summed per day
--
-- Both tables are backfilled from the rows already there, so they hold the same figures as the
-- ledger and the subscriptions they are derived from.

create table analytics_mrr_daily (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  currency text not null,
  plan_id text not null references subscription_plans (id),
  -- UTC day of subscription_mrr_changes.occurred_at.
  day date not null,
  -- sum(mrr_after - mrr_before)
  mrr numeric(78, 0) not null,
  -- Changes taking a customer's MRR in the currency from 0 to positive / positive to 0.
  customers_gained bigint not null,
  customers_lost bigint not null,
  -- The same for the subscription's own MRR (the unit when a plan is filtered on).
  subscriptions_gained bigint not null,
  subscriptions_lost bigint not null,
  primary key (merchant_id, livemode, currency, day, plan_id)
);

-- The ledger is append-only (nothing updates or deletes its rows), so inserts are all there is to add.
create function analytics_add_mrr_daily() returns trigger
language plpgsql as $$
begin
  insert into analytics_mrr_daily as d (merchant_id, livemode, currency, plan_id, day, mrr,
    customers_gained, customers_lost, subscriptions_gained, subscriptions_lost)
  select n.merchant_id, n.livemode, n.currency, n.plan_id, (n.occurred_at at time zone 'UTC')::date, sum(n.mrr_after - n.mrr_before),
         count(*) filter (where n.customer_mrr_before = 0 and n.customer_mrr_after > 0),
         count(*) filter (where n.customer_mrr_before > 0 and n.customer_mrr_after = 0),
         count(*) filter (where n.mrr_before = 0 and n.mrr_after > 0),
         count(*) filter (where n.mrr_before > 0 and n.mrr_after = 0)
  from new_rows n
  group by 1, 2, 3, 4, 5
  on conflict (merchant_id, livemode, currency, day, plan_id) do update set
    mrr = d.mrr + excluded.mrr,
    customers_gained = d.customers_gained + excluded.customers_gained,
    customers_lost = d.customers_lost + excluded.customers_lost,
    subscriptions_gained = d.subscriptions_gained + excluded.subscriptions_gained,
    subscriptions_lost = d.subscriptions_lost + excluded.subscriptions_lost;
  return null;
end;
$$;

create trigger subscription_mrr_changes_daily after insert on subscription_mrr_changes
  referencing new table as new_rows for each statement execute function analytics_add_mrr_daily();

insert into analytics_mrr_daily (merchant_id, livemode, currency, plan_id, day, mrr,
  customers_gained, customers_lost, subscriptions_gained, subscriptions_lost)
select m.merchant_id, m.livemode, m.currency, m.plan_id, (m.occurred_at at time zone 'UTC')::date, sum(m.mrr_after - m.mrr_before),
       count(*) filter (where m.customer_mrr_before = 0 and m.customer_mrr_after > 0),
       count(*) filter (where m.customer_mrr_before > 0 and m.customer_mrr_after = 0),
       count(*) filter (where m.mrr_before = 0 and m.mrr_after > 0),
       count(*) filter (where m.mrr_before > 0 and m.mrr_after = 0)
from subscription_mrr_changes m
group by 1, 2, 3, 4, 5;

-- Churn events only (about one ledger row in seven on the bench), with every column the distinct
-- counts read, so a window is a short index range instead of every change of the window.
create index subscription_mrr_changes_churn on subscription_mrr_changes (merchant_id, livemode, currency, occurred_at)
  include (customer_id, subscription_id, plan_id, mrr_before, mrr_after, customer_mrr_before, customer_mrr_after)
  where status_after in ('cancelled', 'lapsed');

create table analytics_cohort_customers_daily (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  currency text not null,
  -- '' counts customers holding any subscription in the currency; a plan id those holding one of that plan.
  plan_id text not null,
  -- UTC day the customer was first seen (customers.created_at).
  day date not null,
  customers bigint not null,
  primary key (merchant_id, livemode, currency, plan_id, day)
);

-- A customer is counted when its first subscription in the currency (of the plan) is inserted.
-- Subscriptions and customers are never deleted, and a subscription's plan and customer and a
-- customer's created_at never change, so inserts are all there is to count. The customer row lock
-- serialises concurrent first subscriptions of one customer (the same lock as the MRR trigger's);
-- seq scans are off for the reason given in 00014_analytics.sql.
create function analytics_count_cohort_customer() returns trigger
language plpgsql set enable_seqscan = off as $$
declare
  plan_currency text;
  customer record;
begin
  select currency into plan_currency from subscription_plans where id = new.plan_id;
  select merchant_id, livemode, (created_at at time zone 'UTC')::date as day into customer
  from customers where id = new.customer_id for update;
  if not exists (select 1 from subscriptions s join subscription_plans p on p.id = s.plan_id
                 where s.customer_id = new.customer_id and s.id <> new.id and p.currency = plan_currency) then
    insert into analytics_cohort_customers_daily as a (merchant_id, livemode, currency, plan_id, day, customers)
    values (customer.merchant_id, customer.livemode, plan_currency, '', customer.day, 1)
    on conflict (merchant_id, livemode, currency, plan_id, day) do update set customers = a.customers + 1;
  end if;
  if not exists (select 1 from subscriptions s where s.customer_id = new.customer_id and s.id <> new.id and s.plan_id = new.plan_id) then
    insert into analytics_cohort_customers_daily as a (merchant_id, livemode, currency, plan_id, day, customers)
    values (customer.merchant_id, customer.livemode, plan_currency, new.plan_id, customer.day, 1)
    on conflict (merchant_id, livemode, currency, plan_id, day) do update set customers = a.customers + 1;
  end if;
  return null;
end;
$$;

create trigger subscriptions_cohort_customer after insert on subscriptions
  for each row execute function analytics_count_cohort_customer();

insert into analytics_cohort_customers_daily (merchant_id, livemode, currency, plan_id, day, customers)
select c.merchant_id, c.livemode, held.currency, held.plan_id, (c.created_at at time zone 'UTC')::date, count(*)
from (
  select distinct s.customer_id, p.currency, '' as plan_id from subscriptions s join subscription_plans p on p.id = s.plan_id
  union all
  select distinct s.customer_id, p.currency, s.plan_id from subscriptions s join subscription_plans p on p.id = s.plan_id
) held
join customers c on c.id = held.customer_id
group by 1, 2, 3, 4, 5;
