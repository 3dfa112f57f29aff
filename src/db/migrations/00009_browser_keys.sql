-- Publishable keys in browsers (issue 13).
-- The origins whose pages may use a merchant's publishable keys: exact origins
-- (`https://shop.example`) or `*` for any. Empty: no browser origin.
alter table merchants add column allowed_origins text[] not null default '{}';

-- The API key that created a payment session; a publishable key reads only the
-- sessions it created. Null for sessions created otherwise (dashboard, invoices).
alter table payment_sessions add column created_by_api_key_id text references api_keys (id);
