-- The chain layer: relay submissions and the relayer's nonce ledger, and the
-- indexer's checkpoints, block hashes and observed chain events. The relay pays
-- only to merchants.payout_address (added by 00002_accounts, set by onboarding).

create table relay_submissions (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  idempotency_key text not null,
  kind text not null check (kind in ('payment', 'subscription')),
  chain_id bigint not null,
  -- EIP-712 digest of the payer's authorization (EIP-3009) or enrolment: one submission per
  -- authorization, whatever the merchant, mode or key.
  authorization_digest text not null,
  -- The contract call to make: { to, functionName, args } with bigints as strings.
  call jsonb not null,
  status text not null check (status in ('pending', 'submitted', 'confirmed', 'failed')),
  transaction_hash text,
  block_number bigint,
  block_hash text,
  confirmations integer not null default 0,
  failure_code text,
  failure_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint relay_submissions_key unique (merchant_id, livemode, idempotency_key),
  constraint relay_submissions_digest unique (authorization_digest)
);
create index relay_submissions_open on relay_submissions (status) where status in ('pending', 'submitted');

-- Next nonce per relayer account and chain; the row lock serialises allocation across
-- concurrent submissions and worker instances.
create table relayer_accounts (
  chain_id bigint not null,
  address text not null,
  next_nonce bigint not null,
  primary key (chain_id, address)
);

-- The signed transaction of a submission, recorded before it is sent: a retried activity
-- re-sends these exact bytes rather than signing a new transaction. A replacement (stuck, higher
-- fee) keeps the nonce and appends its hash.
create table relayer_transactions (
  submission_id text primary key references relay_submissions (id),
  chain_id bigint not null,
  address text not null,
  nonce bigint not null,
  raw_transaction text not null,
  transaction_hash text not null,
  all_hashes text[] not null,
  max_fee_per_gas numeric(78, 0) not null,
  max_priority_fee_per_gas numeric(78, 0) not null,
  gas numeric(78, 0) not null,
  replacements integer not null default 0,
  sent_at timestamptz not null default now(),
  constraint relayer_transactions_nonce unique (chain_id, address, nonce)
);

-- Indexer: how far each chain (per mode) has been read.
create table indexer_checkpoints (
  chain_id bigint not null,
  livemode boolean not null,
  block_number bigint not null,
  block_hash text not null,
  updated_at timestamptz not null default now(),
  primary key (chain_id, livemode)
);

-- Hashes of processed blocks (range ends and blocks with logs), to detect a reorg and find the fork point.
create table indexer_blocks (
  chain_id bigint not null,
  livemode boolean not null,
  block_number bigint not null,
  block_hash text not null,
  primary key (chain_id, livemode, block_number)
);

-- Every contract event the indexer observed. Re-processing a range is idempotent (unique key);
-- dispatched_at is the indexer's own outbox: hooks run after commit until they succeed.
create table chain_events (
  id bigserial primary key,
  chain_id bigint not null,
  livemode boolean not null,
  block_number bigint not null,
  block_hash text not null,
  transaction_hash text not null,
  log_index integer not null,
  address text not null,
  event_name text not null,
  args jsonb not null,
  removed_at timestamptz,
  dispatched_at timestamptz,
  created_at timestamptz not null default now(),
  constraint chain_events_log unique (chain_id, transaction_hash, log_index)
);
create index chain_events_undispatched on chain_events (chain_id, livemode, block_number, log_index) where dispatched_at is null;
