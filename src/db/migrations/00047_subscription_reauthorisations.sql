-- The customer's authorisation of an upgrade above the on-chain cap (issue 40, item 1; docs/decisions.md
-- "Upgrades above the cap: the customer signs a replacement enrolment").
--
--   subscription_reauthorisations  one row per plan change that waits for the customer (requires_customer_action):
--                                  the capability of its hosted link (`token`), and once the customer's signature was
--                                  relayed, the terms it binds (the period the new enrolment starts at, and that
--                                  period's calendar start as the enrolment's firstPeriodStart); once the new
--                                  enrolment is indexed, the on-chain id it replaced and when that was cancelled
--   subscriptions.on_chain_period_offset
--                                  the subscription's period index of the current enrolment's period 0: period n is
--                                  charged as on-chain period n - offset (0 for an enrolment never replaced)
--   subscriptions.on_chain_first_period_start
--                                  the current enrolment's own period 0 start (null: first_period_start, which stays the
--                                  calendar anchor): the contract's start of period n is this + (n - offset) x period
alter table subscriptions add column on_chain_period_offset integer not null default 0 check (on_chain_period_offset >= 0);
alter table subscriptions add column on_chain_first_period_start timestamptz;

create table subscription_reauthorisations (
  plan_change_id text primary key references subscription_plan_changes (id),
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  subscription_id text not null references subscriptions (id),
  -- 32 random bytes, hex: the hosted link's capability, good for this change only.
  token text not null unique,
  -- The hosted approval page with the token: shown as pendingPlanChange.hostedUrl.
  hosted_url text not null,
  status text not null check (status in ('pending', 'applied', 'cancelled')),
  amount numeric(78, 0) not null check (amount > 0),
  -- Set when the customer's signed enrolment is relayed (null before): what the indexer binds it by.
  period_index integer,
  first_period_start timestamptz,
  enrolment_nonce text,
  new_on_chain_id numeric(78, 0),
  replaced_on_chain_id numeric(78, 0),
  replaced_contract_address text,
  replaced_cancelled_at timestamptz,
  applied_at timestamptz,
  created_at timestamptz not null default now()
);
create index subscription_reauthorisations_pending on subscription_reauthorisations (subscription_id) where status = 'pending';
