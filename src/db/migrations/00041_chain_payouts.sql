-- A payout address per chain (issue 39, item 4). A merchant may name, for one configured chain of a mode,
-- an address of its own there; a chain without one pays merchants.payout_address. What pays on a chain
-- (relayed payments, deposits' sweeps, x402, subscription terms, the refund allowance) reads the chain's.
create table merchant_chain_payouts (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  chain_id bigint not null,
  -- EIP-55 checksummed, as merchants.payout_address.
  payout_address text not null check (payout_address ~ '^0x[0-9a-fA-F]{40}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (merchant_id, livemode, chain_id)
);

-- The registry of addresses that identify a merchant on-chain (subscription terms' `merchant`) learns which
-- chains an address is the merchant's on: null is every chain of the mode (the account's payout address),
-- else the chains it was set for. An enrolment on another chain naming it is not this merchant's.
alter table merchant_chain_addresses add column chain_ids bigint[];

-- A session's accepted chains now each carry the payout (`payTo`) and the deposit address on that chain
-- (the forwarder's salt binds the payout, so a chain with its own payout has its own deposit address);
-- a transfer finds its session by any of them.
create index payment_sessions_chain_deposit_addresses on payment_sessions using gin (accepted_chains jsonb_path_ops)
  where accepted_chains is not null;
