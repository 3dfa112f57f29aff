-- The operator's transactions (subscription charges and cancels), sent through the
-- same nonce ledger as the relayer (relayer_accounts: one row per chain and sending
-- address), so several worker processes share one operator key without colliding.
-- Each transaction is recorded, signed, before it is sent: a retry re-sends these
-- bytes, a stuck one is replaced with a higher fee (same nonce, hash appended), and
-- any sender can re-send an earlier one that never reached the node (a nonce gap).
create table operator_transactions (
  id bigserial primary key,
  -- What the transaction does, e.g. 'charge:<manager>:<id>:<period>'; one open or successful row per purpose.
  purpose text not null,
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
  -- null while open; 'reverted' (mined, failed) or 'dropped' (its nonce went to another transaction) free the purpose.
  outcome text check (outcome in ('success', 'reverted', 'dropped')),
  sent_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  constraint operator_transactions_nonce unique (chain_id, address, nonce)
);

create unique index operator_transactions_purpose on operator_transactions (chain_id, purpose)
  where outcome is null or outcome = 'success';
create index operator_transactions_open on operator_transactions (chain_id, address, nonce) where outcome is null;
