-- Deposit forwarders v2 (issue 37, docs/decisions.md): new sessions' deposit addresses are clones made by
-- the version 2 factory; a session keeps the factory it was created with (its address depends on it), and
-- so do its deposits, which sweep through that factory. Existing rows are version 1.
alter table payment_sessions add column deposit_factory_version smallint not null default 1
  check (deposit_factory_version in (1, 2));
alter table deposits add column deposit_factory_version smallint not null default 1
  check (deposit_factory_version in (1, 2));

-- A deposit whose payout the token refuses (blacklisted, zero): left out of sweeps until a re-check finds
-- the cause gone. The code is the refusal's (src/chain/refusals.ts), or `sweep_failed` when unnamed.
alter table deposits add column sweep_blocked_at timestamptz;
alter table deposits add column sweep_blocked_code text;
