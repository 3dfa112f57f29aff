-- The customer portal (issue 40, item 4; docs/decisions.md "Customer portal").
--
--   billing_portal_configurations  what the portal lets a customer do, one row per merchant and mode (absent: the
--                                  defaults, cancel at period end only); plan_ids empty: plan switching off
--   billing_portal_sessions        a short-lived session of one customer; only the SHA-256 of its token is kept.
--                                  return_url null: the customer signed in with their wallet (no merchant link)
--   billing_portal_sign_in_nonces  the nonces of Sign-In with Ethereum (EIP-4361) on a configuration's public
--                                  portal page: single use (used_at), ten minutes
create table billing_portal_configurations (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  cancel_mode text not null default 'at_period_end' check (cancel_mode in ('off', 'now', 'at_period_end')),
  cancellation_reasons text[] not null,
  plan_ids text[] not null default '{}',
  promotion_codes boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (merchant_id, livemode)
);

create table billing_portal_sessions (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  customer_id text not null references customers (id),
  token_hash text not null unique,
  return_url text,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index billing_portal_sessions_customer on billing_portal_sessions (customer_id);

create table billing_portal_sign_in_nonces (
  nonce text primary key,
  configuration_id text not null references billing_portal_configurations (id),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
