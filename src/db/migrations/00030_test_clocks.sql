-- Test clocks (issue #30): a test-mode clock holds a frozen time that only its API advances. Payer
-- wallets attached to a clock put their subscriptions, payment sessions and invoices with this
-- merchant on the clock's time (workflows/test-clock.ts, workflows/clock.ts).
create table test_clocks (
  id text primary key,
  merchant_id text not null references merchants (id),
  -- Test mode only: the column is kept so every object carries its mode, and the check says so.
  livemode boolean not null check (livemode = false),
  name text not null,
  frozen_time timestamptz not null,
  -- ready: at frozen_time; advancing: moving to frozen_time, its attached workflows catching up.
  status text not null check (status in ('ready', 'advancing', 'deleted')),
  -- The time the clock was asked to reach while advancing (null when ready).
  advancing_to timestamptz,
  created_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index test_clocks_merchant on test_clocks (merchant_id, livemode, id desc);

create table test_clock_wallets (
  test_clock_id text not null references test_clocks (id),
  merchant_id text not null references merchants (id),
  -- Lower-cased payer address.
  wallet_address text not null,
  attached_at timestamptz not null default now(),
  -- Set when the clock is deleted: the wallet may join another clock.
  detached_at timestamptz,
  primary key (test_clock_id, wallet_address)
);
-- One live clock per wallet and merchant.
create unique index test_clock_wallets_one_clock on test_clock_wallets (merchant_id, wallet_address) where detached_at is null;
