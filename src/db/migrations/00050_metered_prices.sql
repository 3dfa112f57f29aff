-- Metered prices on plans and the period close in arrears (issue 41, items 3 and 4; docs/metered-billing.md,
-- docs/decisions.md "Metered prices and the period close (issue 41)").
--
--   subscription_plans.metered_prices   the plan's metered prices (one per meter): per_unit, package, graduated or
--                                       volume, validated by the API (src/subscription-plans/metered-prices.ts)
--   subscription_plans.usage_cap        what a subscriber of a metered plan authorises per period on chain (the
--                                       enrolment's amount); at least the fixed amount
--   subscription_plans.usage_grace_period_seconds   how long after a period starts its close waits for late events
--   subscription_usage_closes           the frozen close of one period: the usage of the period before priced, the
--                                       fixed line, the discount line, the total, what is pulled on chain (at most
--                                       the cap) and the open invoice for the rest; one per subscription and period
alter table subscription_plans
  add column metered_prices jsonb,
  add column usage_cap numeric(78, 0),
  add column usage_grace_period_seconds integer,
  add constraint subscription_plans_metered check (
    (metered_prices is null and usage_cap is null and usage_grace_period_seconds is null)
    or (metered_prices is not null and usage_cap >= amount and usage_grace_period_seconds >= 0));

create table subscription_usage_closes (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  subscription_id text not null references subscriptions (id),
  period_index integer not null,
  -- The usage billed: [usage_start, usage_end), the period before period_index; null for period 0 (no usage yet).
  usage_start timestamptz,
  usage_end timestamptz,
  lines jsonb not null,
  total numeric(78, 0) not null check (total >= 0),
  charged numeric(78, 0) not null check (charged >= 0),
  remainder numeric(78, 0) not null check (remainder >= 0),
  remainder_invoice_id text references invoices (id),
  created_at timestamptz not null default now(),
  check (total = charged + remainder),
  check ((remainder > 0) = (remainder_invoice_id is not null)),
  unique (subscription_id, period_index)
);
create index subscription_usage_closes_merchant on subscription_usage_closes (merchant_id, livemode, id desc);
