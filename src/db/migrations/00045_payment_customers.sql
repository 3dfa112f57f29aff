-- One-off payers as customers, and metadata search (issue 40, item 5; docs/decisions.md "One-off payers as customers").
--
--   payment_sessions.customer_id     the customer of the wallet that paid it (the relayed payment's signer, else the one
--                                    sender of the transfers that paid it); set when the session completes, null before,
--                                    and null when several wallets paid it (nobody can be shown to be the payer)
--   payment_sessions.customer_email  the email the payer typed on the hosted page (unverified: a label, never a key)
--   *_metadata                       jsonb containment (metadata @> '{"key":"value"}') for the lists' metadata[key]=value
--                                    filters, on the lists that grow large
alter table payment_sessions
  add column customer_id text references customers (id),
  add column customer_email text check (customer_email is null or length(customer_email) <= 254);
create index payment_sessions_customer on payment_sessions (customer_id, id desc) where customer_id is not null;
create index payment_sessions_metadata on payment_sessions using gin (metadata jsonb_path_ops);
create index coupons_metadata on coupons using gin (metadata jsonb_path_ops);
create index promotion_codes_metadata on promotion_codes using gin (metadata jsonb_path_ops);
