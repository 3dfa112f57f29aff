-- Receipts by email and the receipt page (issue 40, item 5; docs/decisions.md "Receipts").
--
--   receipt_settings   the merchant's switch per kind, one row per mode; no row: the defaults (payment and
--                      refund on, subscription charge and paid invoice off)
--   receipts           one per receipted object (unique per merchant, mode, kind and object: an event
--                      processed twice queues one email); the page is found by the SHA-256 of its link's
--                      random token, never by an id; `data` is what the receipt said when it was sent
create table receipt_settings (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  payment boolean not null,
  subscription_charge boolean not null,
  refund boolean not null,
  invoice boolean not null,
  updated_at timestamptz not null default now(),
  primary key (merchant_id, livemode)
);

create table receipts (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  kind text not null check (kind in ('payment', 'subscription_charge', 'refund', 'invoice')),
  object_id text not null,
  token_hash text not null unique,
  email_id text not null references outbound_emails (id),
  data jsonb not null,
  created_at timestamptz not null default now(),
  unique (merchant_id, livemode, kind, object_id)
);
