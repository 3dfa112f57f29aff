-- Merchant accounts: dashboard identity, live-mode eligibility checks, the
-- per-merchant rate-limit override, the email outbox, shared rate-limit
-- counters and one-time reveals of keys rotated after a leak.

alter table merchants
  -- The identity provider's user id (`sub`) of the dashboard user owning the merchant.
  add column idp_subject text unique,
  add column email_verified_at timestamptz,
  -- TOTP secrets are encrypted at rest (AES-256-GCM, key from SECRETS_ENCRYPTION_KEY).
  add column totp_pending_secret bytea,
  add column totp_secret bytea,
  add column totp_enabled_at timestamptz,
  add column business_name text,
  add column business_sector text,
  add column business_country text,
  add column payout_address text,
  add column onboarded_at timestamptz,
  -- Enterprise: requests per minute per key; null = the Starter default.
  add column rate_limit_per_minute integer check (rate_limit_per_minute is null or rate_limit_per_minute > 0);

create table email_verifications (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null default false,
  email text not null,
  -- SHA-256 of merchant id + code; the code itself is only in the email.
  code_hash bytea not null,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  created_at timestamptz not null default now()
);
create index email_verifications_merchant on email_verifications (merchant_id, id desc);

-- The email outbox: written in the transaction of the state change that
-- causes the email; a Temporal workflow per email (id = email id) sends it.
create table outbound_emails (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null default false,
  to_address text not null,
  subject text not null,
  text_body text not null,
  kind text not null,
  created_at timestamptz not null default now(),
  delivery_started_at timestamptz,
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text
);
create index outbound_emails_pending on outbound_emails (created_at) where sent_at is null;

-- Shared fixed-window counters: each api instance adds its local increments
-- every ~250 ms and reads the global total back.
create unlogged table rate_limit_counters (
  bucket text not null,
  window_start bigint not null,
  count bigint not null,
  primary key (bucket, window_start)
);

-- The secret of a key issued to replace a leaked one, encrypted, until the
-- merchant reveals it once in the dashboard (then the ciphertext is erased).
create table api_key_reveals (
  api_key_id text primary key references api_keys (id),
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  replaces_api_key_id text not null references api_keys (id),
  secret_encrypted bytea,
  created_at timestamptz not null default now(),
  revealed_at timestamptz
);

alter table api_key_audit_log drop constraint api_key_audit_log_action_check;
alter table api_key_audit_log
  add constraint api_key_audit_log_action_check check (action in ('issued', 'revoked', 'revealed'));
