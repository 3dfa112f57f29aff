-- Checkout on several chains per mode (issue 39): the chains a payment session accepts, each with the
-- token it is paid in there (USDC has its own address on each chain), in the order the hosted page offers
-- them; the first is the session's chain_id and token. Null for sessions created before: they accept their
-- chain_id alone. A merchant may restrict every new session to some of its mode's chains (null: all).
alter table payment_sessions add column accepted_chains jsonb;
alter table merchants add column accepted_chain_ids bigint[];

-- A deposit address is the same on every chain (CREATE2): a transfer on any chain of the mode finds its
-- session by address alone.
create index payment_sessions_deposit_address_any_chain on payment_sessions (livemode, lower(deposit_address))
  where deposit_address is not null;
