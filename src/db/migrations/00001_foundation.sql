-- Platform foundation: merchants, API keys and their audit log, idempotency
-- records, the transactional event outbox, and subscription plans.

create table merchants (
  id text primary key,
  name text not null,
  email text,
  -- The dated API version used when a request sends no Service-Version header.
  api_version text not null,
  created_at timestamptz not null default now()
);

create table api_keys (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  kind text not null check (kind in ('secret', 'publishable')),
  name text not null default '',
  -- SHA-256 of the whole key; the key itself is never stored.
  secret_hash bytea not null unique,
  prefix text not null,
  last4 text not null,
  scopes text[] not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text
);
create index api_keys_merchant on api_keys (merchant_id, id desc);

-- Append-only: keys are never deleted, every issue and revoke is recorded.
create table api_key_audit_log (
  id text primary key,
  merchant_id text not null references merchants (id),
  api_key_id text not null references api_keys (id),
  action text not null check (action in ('issued', 'revoked')),
  actor text not null,
  reason text,
  created_at timestamptz not null default now()
);
create index api_key_audit_log_merchant on api_key_audit_log (merchant_id, id desc);

create table idempotency_keys (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  key text not null,
  request_hash text not null,
  method text not null,
  path text not null,
  state text not null check (state in ('in_progress', 'completed')),
  response_status integer,
  response_body text,
  locked_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (merchant_id, livemode, key)
);
create index idempotency_keys_expiry on idempotency_keys (expires_at);

-- The transactional outbox: written in the same transaction as the state change.
create table events (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  type text not null,
  data jsonb not null,
  created_at timestamptz not null default now(),
  dispatched_at timestamptz
);
create index events_pending on events (created_at) where dispatched_at is null;
create index events_merchant on events (merchant_id, livemode, id desc);

create table subscription_plans (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  name text not null,
  amount numeric(78, 0) not null check (amount > 0),
  currency text not null,
  interval text not null check (interval in ('daily', 'weekly', 'monthly', 'quarterly', 'yearly')),
  interval_count integer not null check (interval_count >= 1),
  trial_period_days integer not null check (trial_period_days >= 0),
  created_at timestamptz not null default now()
);
create index subscription_plans_merchant on subscription_plans (merchant_id, livemode, id desc);
