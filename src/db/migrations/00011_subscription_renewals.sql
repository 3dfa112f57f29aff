-- Renewing a subscription's allowance: one "renew your authorisation" notice per
-- subscription and renewal window. The window's business key is the first
-- period the allowance seen at the notice cannot pay (run_out_period_index);
-- a top-up moves that period later, which opens a new window. The notice holds
-- the hash of the capability in its renewal link and the email it queued.
create table subscription_renewal_notices (
  subscription_id text not null references subscriptions (id),
  run_out_period_index integer not null check (run_out_period_index >= 0),
  -- The on-chain allowance (subscriber -> SubscriptionManager) when the notice was made.
  allowance numeric(78, 0) not null check (allowance >= 0),
  -- sha256 (hex) of the token in the renewal link; the token itself is only in the email.
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  -- Null when the customer left no email (nothing could be sent).
  email_id text references outbound_emails (id),
  created_at timestamptz not null default now(),
  primary key (subscription_id, run_out_period_index)
);
