-- Payment sessions (one-shot checkout), invoices with their per-merchant number
-- counters, and refunds. Amounts are numeric integers in token base units.

create table payment_sessions (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  amount numeric(78, 0) not null check (amount > 0),
  currency text not null,
  status text not null check (status in ('open', 'processing', 'completed', 'expired', 'cancelled')),
  pay_to text not null,
  token text not null,
  chain_id bigint not null,
  expires_at timestamptz not null,
  success_url text,
  cancel_url text,
  metadata jsonb not null default '{}',
  -- The relay submission paying this session, its payer and EIP-3009 nonce (set when processing).
  relay_submission_id text,
  payer text,
  authorization_nonce text,
  transaction_hash text,
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index payment_sessions_list on payment_sessions (merchant_id, livemode, id desc);

alter table relay_submissions add column payment_session_id text references payment_sessions (id);
-- At most one live (not failed) relay submission per session.
create unique index relay_submissions_one_per_session on relay_submissions (payment_session_id)
  where payment_session_id is not null and status <> 'failed';

-- Next invoice number per merchant, mode and year; updated in the invoice's create transaction,
-- so numbers are gap-free (a rolled-back create gives its number back).
create table invoice_number_counters (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  year integer not null,
  last_number integer not null,
  primary key (merchant_id, livemode, year)
);

create table invoices (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  number text not null,
  customer_name text,
  customer_email text,
  currency text not null,
  line_items jsonb not null,
  subtotal numeric(78, 0) not null,
  total numeric(78, 0) not null,
  status text not null check (status in ('draft', 'sent', 'paid', 'overdue', 'void')),
  session_id text not null references payment_sessions (id),
  due_at timestamptz not null,
  due_in_days integer not null,
  note text,
  email_id text,
  sent_at timestamptz,
  paid_at timestamptz,
  voided_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint invoices_number unique (merchant_id, livemode, number)
);
create index invoices_list on invoices (merchant_id, livemode, id desc);
create index invoices_session on invoices (session_id);

create table refunds (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  payment_session_id text not null references payment_sessions (id),
  invoice_id text references invoices (id),
  amount numeric(78, 0) not null check (amount > 0),
  currency text not null,
  reason text,
  status text not null check (status in ('pending', 'succeeded', 'failed')),
  chain_id bigint not null,
  token text not null,
  from_address text not null,
  to_address text not null,
  transaction_hash text,
  succeeded_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint refunds_transaction_hash unique (chain_id, transaction_hash)
);
create index refunds_list on refunds (merchant_id, livemode, id desc);
create index refunds_session on refunds (payment_session_id);
