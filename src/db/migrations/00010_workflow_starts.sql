-- The outbox of workflow starts: a row written in the same transaction as the object whose
-- workflow it starts (or signals, with signal-with-start), tried right after commit and retried by
-- the outbox sweep until Temporal accepts it. One row per workflow and action ('start' or a signal name).
create table workflow_starts (
  workflow_id text not null,
  action text not null,
  workflow_type text not null,
  task_queue text not null,
  args jsonb not null,
  signal_args jsonb not null default '[]',
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  last_error text,
  -- Set once Temporal accepted it (or it was discarded because its object reached a terminal state).
  done_at timestamptz,
  primary key (workflow_id, action)
);
create index workflow_starts_pending on workflow_starts (created_at) where done_at is null;
