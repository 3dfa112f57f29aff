-- x402 settlements (issue 27): one row per EIP-3009 authorization an x402 seller settled through the
-- facilitator, keyed as the chain knows it (chain, token, payer, nonce), so a repeated or concurrent
-- settle of the same authorization finds the first one. The payment itself is an ordinary payment
-- session paid by an ordinary relay submission; this row keeps what x402 says about it.

create table x402_payments (
  chain_id bigint not null,
  -- Addresses lower-case, the nonce as 0x-prefixed lower-case hex: the key compares as text.
  token text not null check (token ~ '^0x[0-9a-f]{40}$'),
  payer text not null check (payer ~ '^0x[0-9a-f]{40}$'),
  nonce text not null check (nonce ~ '^0x[0-9a-f]{64}$'),
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  payment_session_id text not null unique references payment_sessions (id),
  relay_submission_id text not null unique references relay_submissions (id),
  scheme text not null,
  -- CAIP-2, e.g. eip155:8453.
  network text not null,
  -- The paid resource as the buyer's payload names it (optional in x402 v2).
  resource_url text,
  resource_description text,
  resource_mime_type text,
  created_at timestamptz not null default now(),
  primary key (chain_id, token, payer, nonce)
);
