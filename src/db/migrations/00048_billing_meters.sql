-- Billing meters and usage events (issue 41, items 1 and 2; docs/decisions.md "Meters and usage events (issue 41)").
--
--   billing_meters        what usage is counted (an event name, an aggregation, the payload keys); at most one
--                         active meter per event name, merchant and mode
--   meter_events          one row per accepted usage event; its primary key (merchant, mode, identifier) is the
--                         dedupe key, so a duplicate is ignored whenever it arrives and however requests race
--   meter_usage_hourly    sum and count of the uncancelled events per meter, customer and UTC hour, maintained in
--                         the statement that inserts the events (and the one that cancels one), so a sum or count
--                         summary reads at most 24 rows a day whatever the event volume
create table billing_meters (
  id text primary key,
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  display_name text not null,
  event_name text not null,
  aggregation text not null check (aggregation in ('sum', 'count', 'max', 'last', 'unique_count')),
  value_key text,
  customer_mapping_type text not null check (customer_mapping_type in ('by_id', 'by_wallet')),
  customer_payload_key text not null,
  status text not null default 'active' check (status in ('active', 'inactive')),
  deactivated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((aggregation = 'count') = (value_key is null)),
  check ((status = 'inactive') = (deactivated_at is not null))
);
create index billing_meters_merchant on billing_meters (merchant_id, livemode, id desc);
create unique index billing_meters_active_event_name on billing_meters (merchant_id, livemode, event_name) where status = 'active';

create table meter_events (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  identifier text not null,
  meter_id text not null references billing_meters (id),
  customer_id text not null references customers (id),
  event_time timestamptz not null,
  -- The value of the meter's valueKey: a number (exact decimal) for sum, max and last, the text for unique_count;
  -- both null for count.
  quantity numeric(38, 12),
  distinct_value text,
  payload jsonb not null,
  created_at timestamptz not null default now(),
  cancelled_at timestamptz,
  primary key (merchant_id, livemode, identifier)
);
-- Summaries of one customer and window read this index only (max, last and unique_count).
create index meter_events_usage on meter_events (meter_id, customer_id, event_time)
  include (quantity, distinct_value, created_at) where cancelled_at is null;

create table meter_usage_hourly (
  merchant_id text not null references merchants (id),
  livemode boolean not null,
  meter_id text not null references billing_meters (id),
  customer_id text not null references customers (id),
  hour_start timestamptz not null,
  quantity_sum numeric(38, 12) not null,
  event_count bigint not null check (event_count >= 0),
  primary key (meter_id, customer_id, hour_start)
);
