-- Storefront and products (issue 15): one public shop page per merchant and mode, its products,
-- and the product a payment session was bought for.

create table storefronts (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  -- The public page is /store/{slug}: unique across the service (both modes), lower-case.
  slug text not null unique check (slug ~ '^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$'),
  name text not null,
  description text,
  logo_url text,
  accent_color text not null check (accent_color ~ '^#[0-9a-f]{6}$'),
  support_email text,
  success_url text,
  cancel_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (merchant_id, livemode)
);

create table products (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  name text not null,
  description text,
  image_url text,
  amount numeric(78, 0) not null check (amount > 0),
  currency text not null,
  -- A product with a plan enrols the buyer in that plan (hosted enrolment) instead of a one-shot payment.
  plan_id text references subscription_plans (id),
  active boolean not null default true,
  -- Archived products leave the public page and cannot change; sessions bought for them keep them.
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (archived_at is null or not active)
);
create index products_list on products (merchant_id, livemode, id desc);

-- The product a session was bought for, and its name as the customer saw it when buying.
alter table payment_sessions add column product_id text references products (id);
alter table payment_sessions add column product_name text;
create index payment_sessions_product on payment_sessions (product_id) where product_id is not null;
