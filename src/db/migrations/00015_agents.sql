-- Agents (issue 14, first half): the agent configuration, the agent wallet of
-- each merchant and mode (key encrypted at rest), escrow jobs (ERC-8183) and
-- the activity feed. docs/agents.md describes them.

-- One configuration per merchant and mode, created lazily with the documented defaults.
create table agent_configs (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  config jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (merchant_id, livemode)
);

-- The wallet that funds escrow jobs: one per merchant and mode. The private key is
-- sealed with AES-256-GCM (src/security/encryption.ts), bound to the row by its
-- context; it never leaves the worker in clear.
create table agent_wallets (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  address text not null,
  sealed_key bytea not null,
  created_at timestamptz not null default now(),
  primary key (merchant_id, livemode)
);

create table agent_jobs (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  vendor_address text not null,
  evaluator_address text not null,
  description text not null,
  amount numeric(78, 0) not null check (amount > 0),
  currency text not null,
  amount_usd_cents numeric(78, 0) not null,
  status text not null check (status in ('proposed', 'approved', 'funded', 'submitted', 'completed', 'rejected', 'disputed', 'expired', 'failed')),
  approval_reasons text[] not null default '{}',
  expires_in_seconds integer not null,
  approval_deadline timestamptz not null,
  chain_id integer,
  escrow_address text,
  onchain_job_id numeric(78, 0),
  expired_at timestamptz,
  create_transaction_hash text,
  fund_transaction_hash text,
  submit_transaction_hash text,
  deliverable text,
  settle_transaction_hash text,
  refund_transaction_hash text,
  failure_reason text,
  approved_at timestamptz,
  funded_at timestamptz,
  submitted_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index agent_jobs_list on agent_jobs (merchant_id, livemode, id desc);
-- The monthly spend cap sums approved jobs of a calendar month.
create index agent_jobs_approved on agent_jobs (merchant_id, livemode, approved_at) where approved_at is not null;
-- The indexer hook finds a job by its on-chain id.
create unique index agent_jobs_onchain on agent_jobs (chain_id, lower(escrow_address), onchain_job_id) where onchain_job_id is not null;

create table agent_activity (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  capability text not null,
  action_type text not null,
  outcome text not null,
  subscription_id text,
  transaction_id text,
  job_id text,
  summary text not null,
  details jsonb not null default '{}',
  -- One record per action: a retried activity records nothing twice.
  action_key text not null,
  created_at timestamptz not null default now(),
  unique (merchant_id, livemode, action_key)
);
create index agent_activity_list on agent_activity (merchant_id, livemode, id desc);
create index agent_activity_job on agent_activity (job_id) where job_id is not null;
