-- One ledger for every transaction the platform signs (issue 17): relay submissions, the
-- operator's charges, cancels and permits, escrow calls. It replaces relayer_transactions
-- (00004) and operator_transactions (00007), which had the same columns. Nonces still come
-- from relayer_accounts (one row per chain and sending address). Each transaction is recorded,
-- signed, before it is sent, under a purpose:
--   relay:<submission id>
--   charge:<manager>:<subscription id>:<period>, cancel:<manager>:<subscription id>
--   permit:<token>:<signature hash>, escrow:<escrow address>:<...> (escrow calls)
-- A retry re-sends the recorded bytes; a stuck one is replaced with a higher fee (same nonce,
-- hash appended to all_hashes); a recorded nonce that never reached the node (its sender died
-- between commit and send) is re-sent by whichever sender is stuck behind it.

-- Old workers of a rolling deploy write the old tables until they stop. Wait for any of their
-- transactions in progress to commit, and keep new ones out until the copy is done and the old
-- tables are gone: a transaction recorded there is then either copied here or never committed
-- (its sender fails before sending: every old code path records or reads before it sends).
lock table relayer_transactions, operator_transactions in exclusive mode;

create table chain_transactions (
  id bigserial primary key,
  -- What the transaction does (see above); at most one open or successful row per purpose.
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
  -- null while open; 'reverted' (mined, failed) or 'dropped' (its nonce went to another
  -- transaction) free the purpose for a new transaction where the sender allows one (not relay).
  outcome text check (outcome in ('success', 'reverted', 'dropped')),
  sent_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  constraint chain_transactions_nonce unique (chain_id, address, nonce)
);

create unique index chain_transactions_live_purpose on chain_transactions (chain_id, purpose)
  where outcome is null or outcome = 'success';
-- Every row of a purpose, newest last (a relay purpose is looked up whatever its outcome).
create index chain_transactions_purpose on chain_transactions (chain_id, purpose, id);
create index chain_transactions_open on chain_transactions (chain_id, address, nonce) where outcome is null;

-- The operator's rows, in their order.
insert into chain_transactions (purpose, chain_id, address, nonce, raw_transaction, transaction_hash, all_hashes,
                                max_fee_per_gas, max_priority_fee_per_gas, gas, replacements, outcome, sent_at, created_at)
select purpose, chain_id, address, nonce, raw_transaction, transaction_hash, all_hashes,
       max_fee_per_gas, max_priority_fee_per_gas, gas, replacements, outcome, sent_at, created_at
from operator_transactions
order by id;

-- The relayer's rows. The old table had no outcome: the submission's status says it. An open
-- submission's transaction stays open, so the relay goes on following it after the deploy.
insert into chain_transactions (purpose, chain_id, address, nonce, raw_transaction, transaction_hash, all_hashes,
                                max_fee_per_gas, max_priority_fee_per_gas, gas, replacements, outcome, sent_at, created_at)
select 'relay:' || t.submission_id, t.chain_id, t.address, t.nonce, t.raw_transaction, t.transaction_hash, t.all_hashes,
       t.max_fee_per_gas, t.max_priority_fee_per_gas, t.gas, t.replacements,
       case
         when s.status = 'confirmed' then 'success'
         when s.status = 'failed' and s.block_number is not null then 'reverted'
         when s.status = 'failed' then 'dropped'
       end,
       t.sent_at, t.sent_at
from relayer_transactions t
join relay_submissions s on s.id = t.submission_id
order by t.chain_id, t.address, t.nonce;

-- No views: nothing reads the old tables once the new code runs, and an old worker that still
-- reads or writes them must fail (its activity is retried on a new worker) rather than record
-- a transaction the new ledger would not see.
drop table relayer_transactions;
drop table operator_transactions;
