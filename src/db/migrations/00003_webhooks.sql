-- Webhooks: endpoints (signing secrets encrypted at rest), delivery runs (one
-- attempt sequence of one event to one endpoint; a replay is a new run), one
-- delivery record per attempt, and the notices sent when an endpoint is
-- disabled automatically.

create table webhook_endpoints (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  url text not null,
  -- Event kinds subscribed to; '*' means every kind.
  events text[] not null,
  description text not null default '',
  status text not null check (status in ('active', 'disabled')),
  disabled_reason text check (disabled_reason in ('manual', 'too_many_failures')),
  disabled_at timestamptz,
  -- AES-256-GCM: 12-byte IV, 16-byte tag, then the ciphertext of the `whsec_...` string.
  secret_ciphertext bytea not null,
  secret_prefix text not null,
  -- After a rotation the previous secret keeps signing beside the new one until it expires.
  previous_secret_ciphertext bytea,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_merchant on webhook_endpoints (merchant_id, livemode, id desc);
create index webhook_endpoints_routing on webhook_endpoints (merchant_id, livemode) where status = 'active';

create table webhook_delivery_runs (
  -- The workflow id: whd_<eventId>_<endpointId> for the first run, with _r<N> for replay N.
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  event_id text not null references events (id),
  endpoint_id text not null references webhook_endpoints (id),
  sequence integer not null check (sequence >= 0),
  status text not null check (status in ('in_progress', 'succeeded', 'permanently_failed', 'cancelled')),
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (event_id, endpoint_id, sequence)
);
create index webhook_delivery_runs_failures on webhook_delivery_runs (endpoint_id, finished_at)
  where status = 'permanently_failed';

create table webhook_deliveries (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  run_id text not null references webhook_delivery_runs (id),
  endpoint_id text not null references webhook_endpoints (id),
  event_id text not null references events (id),
  event_type text not null,
  attempt integer not null check (attempt >= 1),
  status text not null check (status in ('succeeded', 'failed', 'permanently_failed')),
  response_status integer,
  response_body_excerpt text,
  error text,
  duration_ms integer not null,
  attempted_at timestamptz not null,
  next_retry_at timestamptz,
  unique (run_id, attempt)
);
create index webhook_deliveries_merchant on webhook_deliveries (merchant_id, livemode, id desc);
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id desc);

-- What the merchant must be told (by email) about an endpoint; the email
-- sender sets emailed_at.
create table webhook_endpoint_notices (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  endpoint_id text not null references webhook_endpoints (id),
  kind text not null check (kind in ('webhook_endpoint.disabled')),
  occurred_at timestamptz not null,
  data jsonb not null,
  created_at timestamptz not null default now(),
  emailed_at timestamptz,
  unique (endpoint_id, kind, occurred_at)
);
