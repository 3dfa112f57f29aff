-- Coupons and promotion codes (issue 40, item 2; docs/decisions.md "Coupons and promotion codes (issue 40)").
--
--   coupons                       what a discount takes off (percent in basis points, or an amount) and for how
--                                 many periods; redemption limits; soft-deleted so discounts on it keep working
--   promotion_codes               customer-facing codes on a coupon, unique per merchant and mode whatever the case
--   subscription_discounts        a coupon applied to a subscription; at most one open (ended_at null) per subscription
--   enrolment_promotion_codes     a code given on the hosted enrolment page, kept until the indexer projects the
--                                 subscription, which redeems it in the same transaction
--
-- Redemption counters (times_redeemed) move only by a conditional UPDATE (`where times_redeemed < max_redemptions`),
-- so concurrent redemptions of the last one cannot both succeed.
create table coupons (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  name text,
  -- Exactly one of the two: basis points (2000 = 20%), or an amount in token base units.
  percent_off_bp integer check (percent_off_bp between 1 and 9999),
  amount_off numeric(78, 0) check (amount_off > 0),
  currency text not null default 'USDC',
  duration text not null check (duration in ('once', 'repeating', 'forever')),
  duration_in_periods integer check (duration_in_periods between 1 and 1200),
  max_redemptions integer check (max_redemptions > 0),
  times_redeemed integer not null default 0,
  redeem_by timestamptz,
  applies_to_plan_ids text[],
  metadata jsonb not null default '{}',
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((percent_off_bp is null) <> (amount_off is null)),
  check ((duration = 'repeating') = (duration_in_periods is not null)),
  check (max_redemptions is null or times_redeemed <= max_redemptions)
);
create index coupons_merchant on coupons (merchant_id, livemode, id desc) where deleted_at is null;

create table promotion_codes (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  coupon_id text not null references coupons (id),
  code text not null,
  active boolean not null default true,
  expires_at timestamptz,
  first_time_transaction boolean not null default false,
  max_redemptions integer check (max_redemptions > 0),
  times_redeemed integer not null default 0,
  metadata jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (max_redemptions is null or times_redeemed <= max_redemptions)
);
create unique index promotion_codes_code on promotion_codes (merchant_id, livemode, lower(code));
create index promotion_codes_merchant on promotion_codes (merchant_id, livemode, id desc);

create table subscription_discounts (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  subscription_id text not null references subscriptions (id),
  coupon_id text not null references coupons (id),
  promotion_code_id text references promotion_codes (id),
  -- Business time (the subscription's test clock, if any) when it was applied.
  started_at timestamptz not null,
  -- Periods charged at the discounted amount (a repeating coupon ends after duration_in_periods of them).
  periods_applied integer not null default 0,
  ended_at timestamptz,
  end_reason text check (end_reason in ('removed', 'replaced', 'used_up')),
  created_at timestamptz not null default now()
);
create unique index subscription_discounts_open on subscription_discounts (subscription_id) where ended_at is null;

create table enrolment_promotion_codes (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  plan_id text not null references subscription_plans (id),
  subscriber_address text not null check (subscriber_address ~ '^0x[0-9a-f]{40}$'),
  promotion_code_id text not null references promotion_codes (id),
  created_at timestamptz not null default now(),
  primary key (merchant_id, livemode, plan_id, subscriber_address)
);

-- A charge carries its discount line: the coupon's discount it was pulled under and the amount taken off
-- (`amount` stays what was pulled; the undiscounted figure is amount + discount_amount).
alter table subscription_charges add column discount_id text references subscription_discounts (id);
alter table subscription_charges add column discount_amount numeric(78, 0) check (discount_amount > 0);

-- What each period charges under the open discount (null: no discount, the full amount). MRR counts it.
alter table subscriptions add column discounted_amount numeric(78, 0) check (discounted_amount > 0);

-- The MRR trigger of 00014_analytics.sql, counting the discounted amount where there is one.
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
    before_mrr := analytics_monthly_mrr(coalesce(old.discounted_amount, old.amount), plan.interval, plan.interval_count);
  end if;
  if new.status in ('active', 'at_risk') then
    after_mrr := analytics_monthly_mrr(coalesce(new.discounted_amount, new.amount), plan.interval, plan.interval_count);
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
  select coalesce(sum(analytics_monthly_mrr(coalesce(s.discounted_amount, s.amount), p.interval, p.interval_count)), 0) into customer_after
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
create trigger subscriptions_mrr_update after update of status, amount, discounted_amount on subscriptions
  for each row when (old.status is distinct from new.status or old.amount is distinct from new.amount
                     or old.discounted_amount is distinct from new.discounted_amount)
  execute function analytics_record_mrr_change();
