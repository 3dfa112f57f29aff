-- Local webhook development (`npm run listen`): a listener is a test-mode
-- webhook endpoint of kind `listener` that the api never sends to. Its
-- deliveries go through the same delivery workflow; the attempt activity
-- (worker) writes each signed request into webhook_listener_requests and
-- NOTIFYs; the api process holding the CLI's event stream pushes it to the CLI,
-- which forwards it to the developer's local URL and reports the response back
-- (NOTIFY again). Postgres is the hand-off, so api and worker may be separate
-- processes on separate hosts.

alter table webhook_endpoints
  add column kind text not null default 'url' check (kind in ('url', 'listener')),
  -- Listeners only: no delivery after this time. Pushed forward while a session is connected,
  -- so it is at most the grace period after the last session closed.
  add column expires_at timestamptz,
  add constraint webhook_endpoints_listener_test_mode check (kind = 'url' or not livemode),
  add constraint webhook_endpoints_listener_expiry check ((kind = 'listener') = (expires_at is not null));

-- One row per connected stream (a CLI may reconnect; several may share a listener).
create table webhook_listener_sessions (
  id text primary key,
  endpoint_id text not null references webhook_endpoints (id),
  opened_at timestamptz not null default now(),
  -- Refreshed by the api every few seconds while the stream is open; a session not seen
  -- recently (its api instance died) no longer counts as connected.
  seen_at timestamptz not null default now(),
  closed_at timestamptz
);
create index webhook_listener_sessions_open on webhook_listener_sessions (endpoint_id) where closed_at is null;

-- The mailbox between the worker's attempt and the CLI: one row per attempt handed to a listener,
-- deleted by the attempt once it has its answer (or gave up waiting).
create table webhook_listener_requests (
  id text primary key,
  endpoint_id text not null references webhook_endpoints (id),
  run_id text not null,
  attempt integer not null,
  event_id text not null,
  event_type text not null,
  -- The Standard Webhooks headers and the exact body bytes that were signed.
  headers jsonb not null,
  body bytea not null,
  created_at timestamptz not null default now(),
  -- The attempt stops waiting at this time.
  answer_by timestamptz not null,
  response_status integer,
  response_body_excerpt text,
  error text,
  duration_ms integer,
  answered_at timestamptz
);
create index webhook_listener_requests_pending on webhook_listener_requests (endpoint_id, created_at) where answered_at is null;
