-- Agent capabilities (issue 14, second half). docs/agents.md describes them.

-- recovery: one notice per at_risk period the agent works on. It holds the hash of the
-- capability in the top-up link (the hosted renewal page accepts it like a renewal notice's
-- token) and the email it queued; the token itself is only in the email.
create table agent_recovery_notices (
  subscription_id text not null references subscriptions (id),
  period_index integer not null check (period_index >= 0),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  -- Null when the customer left no email (nothing could be sent).
  email_id text references outbound_emails (id),
  grace_deadline timestamptz not null,
  created_at timestamptz not null default now(),
  primary key (subscription_id, period_index)
);
