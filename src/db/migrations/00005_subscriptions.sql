-- Subscriptions: the on-chain addresses that identify a merchant, customers
-- (by wallet), subscriptions projected from SubscriptionCreated, and one charge
-- row per (subscription, period).

-- Grace window of an at_risk subscription before it lapses (per merchant).
alter table merchants add column subscription_grace_period_hours integer not null default 72
  check (subscription_grace_period_hours between 0 and 8760);

-- The payout addresses that identify a merchant on-chain: the `merchant` of an
-- enrolment's Terms is looked up here. One address belongs to one merchant per mode.
create table merchant_chain_addresses (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  -- Lower-case hex, 0x-prefixed.
  address text not null check (address ~ '^0x[0-9a-f]{40}$'),
  created_at timestamptz not null default now(),
  primary key (livemode, address)
);
create index merchant_chain_addresses_merchant on merchant_chain_addresses (merchant_id, livemode);

create table customers (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  wallet_address text not null check (wallet_address ~ '^0x[0-9a-f]{40}$'),
  email text,
  created_at timestamptz not null default now(),
  unique (merchant_id, livemode, wallet_address)
);

create table subscriptions (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  plan_id text not null references subscription_plans (id),
  customer_id text not null references customers (id),
  status text not null check (status in ('trialing', 'active', 'at_risk', 'paused', 'cancelled', 'lapsed', 'completed')),
  chain_id bigint not null,
  contract_address text not null,
  on_chain_id numeric(78, 0) not null,
  subscriber_address text not null,
  token_address text not null,
  amount numeric(78, 0) not null check (amount > 0),
  period_seconds bigint not null,
  -- 0 = open-ended.
  periods integer not null check (periods >= 0),
  first_period_start timestamptz not null,
  trial_end timestamptz,
  current_period_index integer,
  next_charge_at timestamptz,
  at_risk_since timestamptz,
  cancel_reason text,
  cancelled_by text check (cancelled_by in ('merchant', 'subscriber', 'operator', 'system')),
  cancelled_at timestamptz,
  on_chain_cancelled_at timestamptz,
  lapsed_at timestamptz,
  completed_at timestamptz,
  created_tx_hash text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (livemode, chain_id, contract_address, on_chain_id)
);
create index subscriptions_merchant on subscriptions (merchant_id, livemode, id desc);
create index subscriptions_merchant_status on subscriptions (merchant_id, livemode, status, id desc);
create index subscriptions_plan on subscriptions (plan_id, id desc);

create table subscription_charges (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  subscription_id text not null references subscriptions (id),
  period_index integer not null check (period_index >= 0),
  period_start timestamptz not null,
  amount numeric(78, 0) not null check (amount > 0),
  status text not null check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  tx_hash text,
  block_number bigint,
  failure_code text,
  failure_reason text,
  attempted_at timestamptz,
  settled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The business key of a charge: at most one per subscription and period.
  unique (subscription_id, period_index)
);
create index subscription_charges_merchant on subscription_charges (merchant_id, livemode, id desc);
create index subscription_charges_subscription on subscription_charges (subscription_id, id desc);
