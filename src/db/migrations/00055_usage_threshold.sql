-- A usage threshold bills a metered subscription's usage early (issue 41, item 4; docs/metered-billing.md,
-- "Usage threshold"; docs/decisions.md, "Usage threshold").
--
--   subscription_plans.usage_threshold        the unbilled usage (base units) that is invoiced at once; metered plans only
--   subscriptions.usage_billed_until          the cut: usage before it is billed (by a threshold bill); every usage
--                                             window (period close, upcoming invoice, final close) starts at it or later
--   subscription_usage_threshold_bills        what each threshold bill priced, [usage_start, usage_end), and its invoice;
--                                             one per (subscription, usage_end), so a sweep run twice at one time bills once
alter table subscription_plans
  add column usage_threshold numeric(78, 0) check (usage_threshold > 0),
  add constraint subscription_plans_usage_threshold_metered check (usage_threshold is null or metered_prices is not null);

alter table subscriptions add column usage_billed_until timestamptz;

create table subscription_usage_threshold_bills (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  subscription_id text not null references subscriptions (id),
  usage_start timestamptz not null,
  usage_end timestamptz not null check (usage_end > usage_start),
  lines jsonb not null,
  total numeric(78, 0) not null check (total > 0),
  invoice_id text not null references invoices (id),
  created_at timestamptz not null default now(),
  unique (subscription_id, usage_end)
);
create index subscription_usage_threshold_bills_merchant on subscription_usage_threshold_bills (merchant_id, livemode, id desc);
-- The sweep looks only at metered plans with a threshold.
create index subscription_plans_usage_threshold on subscription_plans (id) where usage_threshold is not null;
