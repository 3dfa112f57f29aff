-- Metadata on invoices, refunds, customers and subscriptions (issue 40, item 5: "metadata is shown on every object and
-- searchable"; docs/decisions.md "Metadata on every object"). The same shape and filter as payment sessions and coupons:
--   metadata                       the merchant's key-value pairs (string values), '{}' when none were given
--   *_metadata                     jsonb containment (metadata @> '{"key":"value"}') for the lists' metadata[key]=value
alter table invoices add column metadata jsonb not null default '{}';
alter table refunds add column metadata jsonb not null default '{}';
alter table customers add column metadata jsonb not null default '{}';
alter table subscriptions add column metadata jsonb not null default '{}';

create index invoices_metadata on invoices using gin (metadata jsonb_path_ops);
create index refunds_metadata on refunds using gin (metadata jsonb_path_ops);
create index customers_metadata on customers using gin (metadata jsonb_path_ops);
create index subscriptions_metadata on subscriptions using gin (metadata jsonb_path_ops);
