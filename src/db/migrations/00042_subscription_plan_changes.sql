-- Plan changes of subscriptions (issue 40, item 1; docs/decisions.md "Plan changes with proration (issue 40)").
--
--   subscriptions.price_amount    what each period charges before a discount: the current plan's amount; null
--                                 means `amount` (the enrolment plan's, which is also the on-chain cap)
--   subscription_plan_changes     one row per change a merchant asked for: applied at once (an upgrade within the
--                                 cap, any change in a trial), scheduled for a period start (a downgrade), waiting
--                                 for the customer (an upgrade above the cap), or cancelled
--
-- A proration is collected with the first charge of a later period (the contract pulls once per period): the
-- charge claims it by writing its period index (`proration_period_index`), so a retried charge finds the same rows.
alter table subscriptions add column price_amount numeric(78, 0) check (price_amount > 0);

create table subscription_plan_changes (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  subscription_id text not null references subscriptions (id),
  from_plan_id text not null references subscription_plans (id),
  to_plan_id text not null references subscription_plans (id),
  from_amount numeric(78, 0) not null check (from_amount > 0),
  to_amount numeric(78, 0) not null check (to_amount > 0),
  proration_behavior text not null check (proration_behavior in ('create_prorations', 'none')),
  status text not null check (status in ('scheduled', 'requires_customer_action', 'applied', 'cancelled')),
  -- The period in progress when the change was asked for (null: before period 0, in the trial).
  period_index integer,
  -- When the new plan takes effect, and the first period charged at its amount (null while the customer's
  -- authorisation is awaited; for a change applied at once, the period in progress).
  effective_period_index integer,
  effective_at timestamptz,
  proration_amount numeric(78, 0) not null default 0 check (proration_amount >= 0),
  proration_period_index integer,
  applied_at timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz not null default now()
);
-- At most one change waits per subscription (a new one replaces it).
create unique index subscription_plan_changes_open on subscription_plan_changes (subscription_id)
  where status in ('scheduled', 'requires_customer_action');
create index subscription_plan_changes_subscription on subscription_plan_changes (subscription_id, id desc);

-- The MRR trigger (00040_coupons.sql) counting the plan's amount after a change: the discounted amount where
-- there is one (kept on the new price by the plan change), else the price, else the enrolment amount.
create or replace function analytics_record_mrr_change() returns trigger
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
    before_mrr := analytics_monthly_mrr(coalesce(old.discounted_amount, old.price_amount, old.amount), plan.interval, plan.interval_count);
  end if;
  if new.status in ('active', 'at_risk') then
    after_mrr := analytics_monthly_mrr(coalesce(new.discounted_amount, new.price_amount, new.amount), plan.interval, plan.interval_count);
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

  perform 1 from customers where id = new.customer_id for update;
  select coalesce(sum(analytics_monthly_mrr(coalesce(s.discounted_amount, s.price_amount, s.amount), p.interval, p.interval_count)), 0) into customer_after
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

drop trigger subscriptions_mrr_update on subscriptions;
create trigger subscriptions_mrr_update after update of status, amount, discounted_amount, price_amount on subscriptions
  for each row when (old.status is distinct from new.status or old.amount is distinct from new.amount
                     or old.discounted_amount is distinct from new.discounted_amount
                     or old.price_amount is distinct from new.price_amount)
  execute function analytics_record_mrr_change();
