-- Idempotency keys are kept apart per key class as well as per merchant and mode: the publishable key
-- is public, so a key it took must never be the one a secret-key (server) request or a dashboard
-- session finds taken. Rows from before this were almost all secret-key requests.
alter table idempotency_keys add column key_class text not null default 'secret'
  check (key_class in ('secret', 'publishable', 'dashboard'));
alter table idempotency_keys drop constraint idempotency_keys_pkey;
alter table idempotency_keys add primary key (merchant_id, livemode, key_class, key);
