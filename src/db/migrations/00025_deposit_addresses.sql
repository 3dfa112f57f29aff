-- Pay by transfer: every payment session has a deposit address (the counterfactual CREATE2 address
-- of its forwarder, src/chain/deposits/), and every token Transfer into one is a deposit. A deposit is
-- credited to its open session, or late (the session had expired, completed or been cancelled); a
-- reorg that drops its log marks it removed. Each deposit is swept once to the merchant's payout.
alter table payment_sessions add column deposit_address text;
-- What the credited deposits add up to, and what they paid beyond the amount.
alter table payment_sessions add column amount_received numeric(78, 0) not null default 0;
alter table payment_sessions add column amount_excess numeric(78, 0) not null default 0;
create unique index payment_sessions_deposit_address on payment_sessions (chain_id, livemode, lower(deposit_address))
  where deposit_address is not null;

create table deposits (
  id text primary key,
  payment_session_id text not null references payment_sessions (id),
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  chain_id bigint not null,
  token text not null,
  deposit_address text not null,
  -- Where the sweep sends it (the session's payTo: part of the forwarder's salt).
  payout_address text not null,
  from_address text not null,
  amount numeric(78, 0) not null check (amount > 0),
  transaction_hash text not null,
  log_index integer not null,
  block_number bigint not null,
  status text not null check (status in ('pending', 'credited', 'late', 'removed')),
  -- The batch sweep holding it (its purpose in the transaction ledger), its transaction once mined.
  sweep_purpose text,
  sweep_transaction_hash text,
  swept_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint deposits_log unique (chain_id, transaction_hash, log_index)
);
create index deposits_session on deposits (payment_session_id);
create index deposits_unswept on deposits (chain_id, livemode) where swept_at is null and status <> 'removed';
create index deposits_late on deposits (merchant_id, livemode, id desc) where status = 'late';

-- The indexer tells hooks with an `unwind` about a dispatched event a reorg removed, once
-- (src/indexer/indexer.ts); an unwound event the new chain includes again is dispatched again.
alter table chain_events add column unwound_at timestamptz;
create index chain_events_to_unwind on chain_events (chain_id, livemode, block_number, log_index)
  where removed_at is not null and dispatched_at is not null and unwound_at is null;
