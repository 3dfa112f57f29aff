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
