-- The indexer's leadership per chain (per mode): one row, held by one indexer at a time until
-- `expires_at` (the database's clock). Every acquisition bumps `epoch`; each indexer write checks
-- holder, epoch and expiry in its own transaction (the fence, src/indexer/lease.ts), so a
-- leader that lost the lease can no longer write. Replaces the session advisory lock, which a
-- Postgres restart dropped without the holder noticing.
create table indexer_leases (
  chain_id bigint not null,
  livemode boolean not null,
  holder text not null,
  epoch bigint not null,
  expires_at timestamptz not null,
  acquired_at timestamptz not null,
  renewed_at timestamptz not null,
  primary key (chain_id, livemode)
);
